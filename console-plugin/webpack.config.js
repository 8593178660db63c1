// The build of the plugin, as openshift/console-plugin-template's
// webpack.config.ts does it for the 4.22 SDK (commit 91e9481, before the
// template moved to rspack with the 4.23 SDK): ConsoleRemotePlugin makes
// plugin-manifest.json, plugin-entry.js and a chunk per exposed module from
// package.json's consolePlugin and console-extensions.json. ts-loader
// compiles TypeScript (transpile only; `npm run typecheck` checks types).
//
// The modules the console shares are declared as the template declares
// them: ConsoleRemotePlugin takes the ranges of react, react-router and the
// rest from the SDK's peer dependencies, and each PatternFly dynamic
// module's from package.json, where @patternfly/react-core is a caret range
// ("^6.4.3", the template's "^6.4.3" with the 4.22 SDK), so that the
// console's PatternFly 6.6 satisfies it and the plugin uses it rather than
// its own copy. The one module whose range webpack infers itself is the
// SDK's, from package.json: the console shares its SDK as version
// 0.0.0-fixed in every release (openshift/console
// frontend/packages/console-dynamic-plugin-sdk/package.json), so a pinned
// "4.22.0" made every load warn "Unsatisfied version 0.0.0-fixed of shared
// singleton module". package.json's "4.22.0 || 0.0.0-fixed" installs 4.22.0
// and accepts the console's; which consoles the plugin needs is said by
// consolePlugin.dependencies["@console/pluginAPI"]. e2e/standin shares
// them under the versions a console gives them.
const path = require('path');
const { ConsoleRemotePlugin } = require('@openshift-console/dynamic-plugin-sdk-webpack');

const isProd = process.env.NODE_ENV === 'production';

module.exports = {
  mode: isProd ? 'production' : 'development',
  // No entry: ConsoleRemotePlugin generates the plugin's entry.
  entry: {},
  context: path.resolve(__dirname, 'src'),
  output: {
    path: path.resolve(__dirname, 'dist'),
    filename: isProd ? '[name]-bundle-[contenthash].min.js' : '[name]-bundle.js',
    chunkFilename: isProd ? '[name]-chunk-[chunkhash].min.js' : '[name]-chunk.js',
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js', '.jsx'],
  },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /\/node_modules\//,
        use: { loader: 'ts-loader', options: { transpileOnly: true } },
      },
      {
        test: /\.(m?js)$/,
        resolve: { fullySpecified: false },
      },
    ],
  },
  plugins: [new ConsoleRemotePlugin()],
  devtool: isProd ? false : 'source-map',
  optimization: {
    chunkIds: isProd ? 'deterministic' : 'named',
    minimize: isProd,
  },
};
