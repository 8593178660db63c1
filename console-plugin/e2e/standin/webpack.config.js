// The console stand-in's build (docs/console-plugin.md, "End to end"). Like
// the console's own build (frontend/rspack.config.mts of openshift/console,
// getWebpackSharedModules), a ModuleFederationPlugin declares the modules
// the console shares with plugins, eager and singleton, in webpack's
// "default" share scope: react and react-router from node_modules, and
// @openshift-console/dynamic-plugin-sdk from the stand-in's own sdk.ts at
// the SDK's version.
const path = require('path');
const { container } = require('webpack');

const sdkVersion = require('@openshift-console/dynamic-plugin-sdk/package.json').version;

module.exports = {
  mode: 'production',
  context: __dirname,
  entry: { standin: './index.tsx' },
  output: {
    path: path.resolve(__dirname, '..', 'dist'),
    filename: '[name].js',
    chunkFilename: '[name]-[contenthash].js',
    publicPath: '/standin/',
    clean: true,
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js'],
    alias: { '@openshift-console/dynamic-plugin-sdk$': path.resolve(__dirname, 'sdk.ts') },
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
        '@openshift-console/dynamic-plugin-sdk': { singleton: true, eager: true, version: sdkVersion },
      },
    }),
  ],
  devtool: false,
  performance: { hints: false },
};
