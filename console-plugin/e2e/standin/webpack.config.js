// The console stand-in's build (docs/console-plugin.md, "End to end"). Like
// the console's own build (frontend/rspack.config.mts of openshift/console,
// getWebpackSharedModules), a ModuleFederationPlugin declares the modules
// the console shares with plugins, eager, in webpack's "default" share
// scope, under the versions the console gives them:
// - react and react-router, singletons, from node_modules;
// - @openshift-console/dynamic-plugin-sdk, a singleton, from the stand-in's
//   own sdk.ts, as version 0.0.0-fixed: the console shares its SDK as its
//   in-tree package @console/dynamic-plugin-sdk, whose version is
//   0.0.0-fixed in every release
//   (frontend/packages/console-dynamic-plugin-sdk/package.json);
// - every PatternFly react-core dynamic module
//   (@patternfly/react-core/dist/dynamic/...), not singletons, as the
//   console shares them from its own PatternFly. The console's is 6.6
//   (frontend/package.json "@patternfly/react-core": "~6.6.1"); the code is
//   the stand-in's installed 6.x, advertised as the console's 6.6.1, so
//   that a plugin whose range excludes the console's PatternFly is caught
//   bundling its own (e2e/browse.js reads the share scope).
const path = require('path');
const fs = require('fs');
const { container } = require('webpack');
const { resolveDynamicModuleMaps } = require('@openshift-console/dynamic-plugin-sdk-webpack/lib/webpack/DynamicModuleImportPlugin');

// What a real console advertises (console-versions.json, which the unit
// tests hold the plugin's ranges to as well).
const { sdk: ConsoleSDKVersion, patternfly: ConsolePatternFlyVersion } = require('./console-versions.json');

// patternFlyModules are react-core's dynamic modules, as the console's
// build finds them (resolveDynamicModuleMaps of the SDK's webpack package).
const patternFlyModules = [
  ...new Set(
    Object.values(
      resolveDynamicModuleMaps({ '@patternfly/react-core': {} }, [path.resolve(__dirname, '..', '..', 'node_modules')])['@patternfly/react-core'] ?? {},
    ),
  ),
].map((request) => `@patternfly/react-core/${request}`);

// patternFlyStyles are react-styles' CSS files, which PatternFly's modules
// import. They are served apart (test/internal/consolestandin), as the
// console serves its own; an import of one resolves to an empty module, as
// ConsoleRemotePlugin makes it for a plugin (resolve.alias to false).
// IgnorePlugin would not do: its ignored module throws when required.
const stylesDir = path.resolve(__dirname, '..', '..', 'node_modules', '@patternfly', 'react-styles');
const patternFlyStyles = fs
  .readdirSync(stylesDir, { recursive: true })
  .filter((f) => f.endsWith('.css'))
  .map((f) => path.join(stylesDir, f));

module.exports = {
  mode: 'production',
  context: __dirname,
  // webpack provides a shared module only where the build imports it: the
  // console's code imports PatternFly everywhere, the stand-in's does not,
  // so its entry imports each of them.
  entry: { standin: ['./index.tsx', ...patternFlyModules] },
  output: {
    path: path.resolve(__dirname, '..', 'dist'),
    filename: '[name].js',
    chunkFilename: '[name]-[contenthash].js',
    publicPath: '/standin/',
    // The share scope names the stand-in so (plugin.ts StandinScope).
    uniqueName: 'console_standin',
    clean: true,
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js'],
    alias: {
      '@openshift-console/dynamic-plugin-sdk$': path.resolve(__dirname, 'sdk.ts'),
      ...Object.fromEntries(patternFlyStyles.map((f) => [f, false])),
    },
  },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /\/node_modules\//,
        use: { loader: 'ts-loader', options: { transpileOnly: true, configFile: path.resolve(__dirname, 'tsconfig.json') } },
      },
    ],
  },
  plugins: [
    new container.ModuleFederationPlugin({
      name: 'console_standin',
      shared: {
        react: { singleton: true, eager: true },
        'react-router': { singleton: true, eager: true },
        // The console requires no version of its own SDK.
        '@openshift-console/dynamic-plugin-sdk': { singleton: true, eager: true, version: ConsoleSDKVersion, requiredVersion: false },
        ...Object.fromEntries(patternFlyModules.map((m) => [m, { eager: true, version: ConsolePatternFlyVersion }])),
      },
    }),
  ],
  devtool: false,
  performance: { hints: false },
};
