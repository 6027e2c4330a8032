// A category a check is filed under.

export interface Category {
  id: string;
  name: string;
  /** The client's own kind of category (the hosted service's clients send e.g. expense, income); '' when not given. */
  type: string;
  createdAt: number;
}
