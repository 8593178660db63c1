// The build of the plugin, as openshift/console-plugin-template's
// webpack.config.ts does it for the 4.22 SDK (commit 91e9481, before the
// template moved to rspack with the 4.23 SDK): ConsoleRemotePlugin makes
// plugin-manifest.json, plugin-entry.js and a chunk per exposed module from
// package.json's consolePlugin and console-extensions.json. ts-loader
// compiles TypeScript (transpile only; `npm run typecheck` checks types).
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
