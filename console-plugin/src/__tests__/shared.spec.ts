// The ranges the plugin requires of the modules the console shares, as
// webpack checks them when the plugin loads (its semver, which the runtime
// uses): what a real console advertises must satisfy them, or the console
// warns "Unsatisfied version" (a singleton) or the plugin bundles its own
// copy (PatternFly). ConsoleRemotePlugin takes the PatternFly range from
// package.json, and webpack infers the SDK's from it.
import * as fs from 'fs';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('webpack/lib/util/semver') as {
  parseRange: (r: string) => unknown;
  satisfy: (range: unknown, version: string) => boolean;
};

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const console_ = JSON.parse(fs.readFileSync(path.join(root, 'e2e/standin/console-versions.json'), 'utf8')) as { sdk: string; patternfly: string };
const installed = (name: string) =>
  (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('the shared modules a console provides satisfy what the plugin requires', () => {
  test.each([
    ['@openshift-console/dynamic-plugin-sdk', console_.sdk],
    ['@patternfly/react-core', console_.patternfly],
  ])('%s: the console’s %s, and the installed copy', (name, version) => {
    const range = semver.parseRange(pkg.devDependencies[name]);
    expect(semver.satisfy(range, version)).toBe(true);
    expect(semver.satisfy(range, installed(name))).toBe(true);
  });
});
