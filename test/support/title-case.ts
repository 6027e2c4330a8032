// n2words, the independent converter the amount tests compare with, writes "one thousand
// two hundred thirty-four"; a check writes "One Thousand Two Hundred Thirty-Four".

/** Each word and each part of a hyphenated word with a capital first letter. */
export function titleCase(words: string): string {
  return words
    .split(' ')
    .map((w) =>
      w
        .split('-')
        .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
        .join('-'),
    )
    .join(' ');
}
