// Prints the size of what the console loads of the built plugin, the
// manifest and every script (the entry and all its chunks, counted whether
// or not a page needs them), and fails above a limit in bytes. Licence
// texts and source maps are served but never loaded by the console.
// Usage: node scripts/bundle-size.js DIST LIMIT_BYTES
const fs = require('fs');
const path = require('path');

const [dir, limitArg] = process.argv.slice(2);
const limit = Number(limitArg);
if (!dir || !Number.isInteger(limit) || limit <= 0) {
  console.error('usage: bundle-size.js DIST LIMIT_BYTES');
  process.exit(2);
}
if (!fs.existsSync(path.join(dir, 'plugin-manifest.json'))) {
  console.error(`${dir}/plugin-manifest.json is missing: run npm run build first`);
  process.exit(1);
}
const loaded = fs
  .readdirSync(dir)
  .filter((f) => f === 'plugin-manifest.json' || f.endsWith('.js'))
  .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
  .sort((a, b) => b.size - a.size);
const total = loaded.reduce((sum, { size }) => sum + size, 0);
for (const { f, size } of loaded.slice(0, 5)) {
  console.log(`  ${String(size).padStart(8)}  ${f}`);
}
console.log(`bundle: ${total} bytes (${(total / 1000).toFixed(1)} kB) in ${loaded.length} files the console loads; limit ${limit} bytes`);
if (total > limit) {
  console.error(`bundle too large: ${total} bytes > ${limit}`);
  process.exit(1);
}
