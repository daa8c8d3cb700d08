import path from 'node:path';
import zlib from 'node:zlib';
import webpack from 'webpack';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import fs from 'node:fs';
import Beasties from 'beasties';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { BROTLI, COMPRESS_FROM_BYTES, GZIP, writeCompressedTwins } from './scripts/precompress.mjs';
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

interface ChunkGroup {
  assets: { name: string }[];
}

/** What src/prerender.tsx exports, read from the build's own Node bundle of it. */
interface PrerenderEntry {
  PRERENDERED: string[];
  PRELOADED: string[];
  chunksOf: (pathname: string) => string[];
  renderScreen: (pathname: string) => Promise<string>;
}

// The cipher opens a stored session's token before any signed-in screen renders.
const SIGNED_IN_CHUNKS = ['cipher'];
// Inline code the strict CSP (server/src/http/web.ts) would block: the prerender must add none.
const INLINE = /<script(?![^>]*\ssrc=)[^>]*>|<style[\s>]|\sstyle=|\son[a-z]+=/i;

/**
 * After both bundles are built: one HTML file per route with a fixed path (dist/web/pages/, listed
 * in pages.json for the server). Each links its screen's CSS and preloads the route's script chunks
 * (layout and screen at once, instead of one after the other as each lazy import runs). A public
 * screen's also holds its prerendered markup, so it paints styled before any script runs.
 * A public screen's page also carries the CSS its markup uses inline (Beasties) and links the whole
 * stylesheets at the end of its body: it paints once the HTML is in, without waiting for 130 KB of
 * Bootstrap (the server allows the inline <style> by its hash, server/src/http/web.ts).
 */
class PrerenderPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.done.tapPromise('PrerenderPlugin', async (stats) => {
      if (stats.hasErrors()) return;
      const bundle = path.join(distDir, 'prerender', 'prerender.cjs');
      delete require.cache[bundle];
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just built
      const entry = require(bundle) as PrerenderEntry;
      const web = path.join(distDir, 'web');
      const shell = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
      const { entrypoints, namedChunkGroups } = JSON.parse(
        fs.readFileSync(path.join(distDir, 'chunk-groups.json'), 'utf8'),
      ) as {
        entrypoints: Record<string, ChunkGroup>;
        namedChunkGroups: Record<string, ChunkGroup>;
      };
      const loaded = new Set(entrypoints.main?.assets.map((asset) => asset.name));
      const pages: Record<string, string> = {};
      fs.mkdirSync(path.join(web, 'pages'), { recursive: true });
      // pruneSource false: the stylesheets stay whole for the screens the app goes on to.
      const critical = new Beasties({
        path: web,
        publicPath: '/',
        preload: 'body',
        pruneSource: false,
        logLevel: 'warn',
      });
      for (const route of [...entry.PRERENDERED, ...entry.PRELOADED]) {
        const prerendered = entry.PRERENDERED.includes(route);
        const markup = prerendered ? await entry.renderScreen(route) : '';
        if (INLINE.test(markup))
          throw new Error(`${route}: the prerendered markup has inline code`);
        const chunks = [...(prerendered ? [] : SIGNED_IN_CHUNKS), ...entry.chunksOf(route)];
        const files = new Set(
          chunks.flatMap((chunk) => {
            const group = namedChunkGroups[chunk];
            if (!group) throw new Error(`${route}: no chunk named ${chunk}`);
            return group.assets.map((asset) => asset.name).filter((name) => !loaded.has(name));
          }),
        );
        // The screen's CSS applies from the first paint (a preload applied only once the chunk
        // ran moved the page under a phone's first frame); the chunk's loader finds it linked.
        const links = [...files].map((file) =>
          file.endsWith('.css')
            ? `<link href="/${file}" rel="stylesheet">`
            : `<link href="/${file}" rel="preload" as="script">`,
        );
        const page = shell
          .replace('</head>', `${links.join('')}</head>`)
          .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
        const html = prerendered ? await critical.process(page) : page;
        const file = `pages/${route.slice(1).replaceAll('/', '-')}.html`;
        fs.writeFileSync(path.join(web, file), html);
        writeCompressedTwins(path.join(web, file), Buffer.from(html));
        pages[route] = file;
      }
      fs.writeFileSync(path.join(web, 'pages.json'), JSON.stringify(pages, null, 2));
    });
  }
}

type Env = Record<string, string | boolean | undefined>;
type Argv = { mode?: Configuration['mode'] };

/** DIST_DIR lets parallel builds (e.g. several e2e runs) keep apart; default dist/. */
const distDir = path.resolve(__dirname, process.env.DIST_DIR ?? 'dist');

const swcRule = (production: boolean) => ({
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
});

/**
 * The portal's catalogues (src/i18n/catalogues/) compiled as they are bundled: each ICU message
 * becomes the parsed form Lingui's runtime fills in, so no message parser ships to the browser.
 */
const catalogueRule = {
  test: /[\\/]src[\\/]i18n[\\/]catalogues[\\/].+\.json$/,
  type: 'json',
  parser: {
    parse: (source: string) =>
      Object.fromEntries(
        Object.entries(JSON.parse(source) as Record<string, string>).map(([key, message]) => [
          key,
          compileMessage(message),
        ]),
      ),
  },
};

const defineApiBase = () =>
  new webpack.DefinePlugin({ __API_BASE__: JSON.stringify(process.env.API_BASE ?? '/api') });

/**
 * src/prerender.tsx for Node: the web build's loaders, but styles left out (the
 * web build has them) and images named as the web build names them, without writing them again.
 */
const prerenderConfig = (): Configuration => ({
  name: 'prerender',
  dependencies: ['web'],
  mode: 'production',
  target: 'node20',
  entry: { prerender: './src/prerender.tsx' },
  output: {
    path: path.join(distDir, 'prerender'),
    filename: '[name].cjs',
    library: { type: 'commonjs2' },
    publicPath: '/',
    assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
    clean: true,
  },
  resolve: { extensions: ['.tsx', '.ts', '.js'] },
  module: {
    rules: [
      swcRule(true),
      catalogueRule,
      // A style import becomes its unused source text: the web build compiles the styles.
      { test: /\.s?css$/, type: 'asset/source' },
      { test: /\.(png|jpe?g|svg|ico)$/, type: 'asset/resource', generator: { emit: false } },
    ],
  },
  plugins: [
    new webpack.IgnorePlugin({ resourceRegExp: /^\.\/locale$/, contextRegExp: /moment$/ }),
    defineApiBase(),
    new PrerenderPlugin(),
  ],
  optimization: { minimize: false },
  performance: { hints: false },
  stats: 'errors-warnings',
});

export default (
  _env: Env,
  argv: Argv,
): (Configuration & { devServer?: DevServerConfiguration }) | Configuration[] => {
  const production = argv.mode !== 'development';
  const web = webConfig(production);
  // The development server serves the client alone (no prerendered screens).
  return production ? [web, prerenderConfig()] : web;
};

/** What the build also writes compressed (the scripts, style sheets and icons). */
const PRECOMPRESSED = /\.(js|css|svg)$/;

function webConfig(production: boolean): Configuration & { devServer?: DevServerConfiguration } {
  return {
    name: 'web',
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
      // The ESM twin of redux-persist's storage concatenates with the rest (Jest keeps the CJS
      // one).
      alias: { 'redux-persist/lib/storage$': 'redux-persist/es/storage' },
    },
    module: {
      rules: [
        swcRule(production),
        catalogueRule,
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
      // moment's locales add ~350 KiB: moment's own require of all of them is left out, and
      // src/i18n/momentLocale.ts loads the one of the chosen language.
      new webpack.IgnorePlugin({ resourceRegExp: /^\.\/locale$/, contextRegExp: /moment$/ }),
      new ChunkGroupsPlugin(),
      defineApiBase(),
      // V8's explicit compile hint (Chromium 136+; a comment elsewhere): every function of our
      // scripts is compiled with the script, off the main thread while it streams in, instead of
      // lazily on the main thread at its first call, which was most of the evaluation task that
      // blocked /login. It must be the file's first line.
      ...(production
        ? [
            new webpack.BannerPlugin({
              banner: '//# allFunctionsCalledOnLoad',
              raw: true,
              test: /\.js$/,
              // After minification, which drops comments; before the source maps are made.
              stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
            }),
            // Each script, style sheet and icon also as .br and .gz, compressed once here at the
            // strongest settings: the server sends them as they are (server/src/http/web.ts),
            // where compressing on the fly cost 15 ms of CPU for the 295 KB vendor chunk alone,
            // per visitor. The pages get theirs from the prerender, which writes them
            // after this compilation (writeCompressedTwins).
            new CompressionPlugin<zlib.BrotliOptions>({
              filename: '[path][base].br',
              test: PRECOMPRESSED,
              threshold: COMPRESS_FROM_BYTES,
              algorithm: 'brotliCompress',
              compressionOptions: BROTLI,
            }),
            new CompressionPlugin<zlib.ZlibOptions>({
              filename: '[path][base].gz',
              test: PRECOMPRESSED,
              threshold: COMPRESS_FROM_BYTES,
              algorithm: 'gzip',
              compressionOptions: GZIP,
            }),
          ]
        : []),
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
}
