import path from 'node:path';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import fs from 'node:fs';
import type { Compiler, Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';

/** Writes which files each entry and named chunk group needs, for `npm run size`. */
class ChunkGroupsPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.done.tap('ChunkGroupsPlugin', (stats) => {
      const { entrypoints, namedChunkGroups } = stats.toJson({
        all: false,
        entrypoints: true,
        chunkGroups: true,
      });
      const out = path.join(distDir, 'chunk-groups.json');
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify({ entrypoints, namedChunkGroups }, null, 2));
    });
  }
}

type Env = Record<string, string | boolean | undefined>;
type Argv = { mode?: Configuration['mode'] };

/** DIST_DIR lets parallel builds (e.g. several e2e runs) keep apart; default dist/. */
const distDir = path.resolve(__dirname, process.env.DIST_DIR ?? 'dist');

export default (_env: Env, argv: Argv): Configuration & { devServer?: DevServerConfiguration } => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    // Modern runtime code (arrow functions, const); the app itself is compiled for ES2022 too.
    target: ['web', 'es2022'],
    entry: { main: './src/main.tsx' },
    output: {
      path: path.join(distDir, 'web'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      // The spec: further chunks load from our own static path with a 120-second time-out.
      chunkLoadTimeout: 120_000,
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // The ESM twin of redux-persist's storage concatenates with the rest (Jest keeps the CJS one).
      alias: { 'redux-persist/lib/storage$': 'redux-persist/es/storage' },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production } },
                target: 'es2022',
              },
            },
          },
        },
        {
          test: /\.s?css$/,
          use: [
            MiniCssExtractPlugin.loader,
            'css-loader',
            {
              loader: 'sass-loader',
              options: { sassOptions: { quietDeps: true, silenceDeprecations: ['import'] } },
            },
          ],
        },
        { test: /\.(png|jpe?g|svg|ico)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: 'public/index.html', favicon: 'public/favicon.svg' }),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
      // moment's locales add ~350 KiB; the portal formats dates in English only.
      new webpack.IgnorePlugin({ resourceRegExp: /^\.\/locale$/, contextRegExp: /moment$/ }),
      new ChunkGroupsPlugin(),
      new webpack.DefinePlugin({
        __API_BASE__: JSON.stringify(process.env.API_BASE ?? '/api'),
      }),
    ],
    optimization: {
      minimizer: [
        new TerserPlugin({
          minify: TerserPlugin.swcMinify,
          terserOptions: { compress: true, mangle: true },
        }),
        // svgo chokes on Bootstrap's URL-encoded SVG icons; they are already minimal.
        new CssMinimizerPlugin({ minimizerOptions: { preset: ['default', { svgo: false }] } }),
      ],
      splitChunks: { chunks: 'all' },
    },
    performance: { hints: false },
    stats: 'errors-warnings',
    devServer: {
      port: 3000,
      historyApiFallback: true,
      proxy: [
        { context: ['/api', '/gateway'], target: process.env.API_PROXY ?? 'http://localhost:8080' },
      ],
    },
  };
};
