import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// Which better-sqlite3 this runtime loads. Version 12 (a node::ObjectWrap addon) aborts on Node 24
// when a statement is garbage-collected (upstream WiseLibs/better-sqlite3#1515, closed in favour of
// 13); version 13 (node-addon-api, prebuilt N-API binaries in the package) fixes that but needs
// Node >= 22 and crashes on load under Node 20. Both are installed (13 under the npm alias
// `better-sqlite3-13`) and the API we use is the same, so the choice is made here, once, by major
// version. When Node 20 support is dropped, depend on 13 alone and delete this file.
const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

export const sqliteDriverPackage = nodeMajor >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

export const Database: typeof BetterSqlite3 = require(sqliteDriverPackage);
