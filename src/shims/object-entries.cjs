// node-polyglot's `object.entries` polyfill (with get-intrinsic and friends) in the panel's first file: every
// browser the panel supports has Object.entries (vite.config.ts points the package here).
module.exports = Object.entries;
