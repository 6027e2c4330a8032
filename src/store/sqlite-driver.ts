import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// Which better-sqlite3 this runtime loads. Version 12 (a node::ObjectWrap addon) aborts on Node 24
// when a statement is garbage-collected (upstream WiseLibs/better-sqlite3#1515, closed in favour of
// 13); version 13 (node-addon-api, prebuilt N-API binaries in the package) fixes that but needs
// Node >= 22 and crashes on load under Node 20. The API we use is the same, so the choice is made
// here, once, by major version. 13 is an optional dependency under the npm alias
// `better-sqlite3-13`: npm installs it only when the installing Node is 22 or later and skips it
// quietly on Node 20 (a regular dependency printed EBADENGINE there). When Node 20 support is
// dropped, depend on 13 alone and delete this file.
const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

export const sqliteDriverPackage = nodeMajor >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

function loadDriver(): typeof BetterSqlite3 {
  try {
    return require(sqliteDriverPackage);
  } catch (error) {
    // Installed on Node 20, run on 22 or later: npm skipped the optional 13 at install time.
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && sqliteDriverPackage === 'better-sqlite3-13') {
      throw new Error(
        `Node ${process.versions.node} needs better-sqlite3 13, which npm installs only when it runs on Node 22 or later: run \`npm install\` again with this Node.`,
        { cause: error },
      );
    }
    throw error;
  }
}

export const Database: typeof BetterSqlite3 = loadDriver();
