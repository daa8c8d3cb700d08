import path from 'node:path';

// Both server/src/*.ts (tsx, jest) and dist/server/*.cjs (esbuild bundle) sit two levels below
// the project root, so __dirname works for either; a bundle built into another DIST_DIR is told
// the root by PORTAL_ROOT (scripts/e2e.mjs and scripts/start.mjs set it).
export const ROOT_DIR = process.env.PORTAL_ROOT ?? path.resolve(__dirname, '..', '..');
export const OPENAPI_PATH = path.join(ROOT_DIR, 'openapi.yaml');
export const GATEWAY_OPENAPI_PATH = path.join(ROOT_DIR, 'server', 'openapi', 'gateway.yaml');
export const LOGOS_DIR = path.join(ROOT_DIR, 'server', 'assets', 'logos');
export const DIST_DIR = path.resolve(ROOT_DIR, process.env.DIST_DIR ?? 'dist');
export const WEB_DIR = path.join(DIST_DIR, 'web');
/** The gateway's reference page, built by scripts/build-gateway-docs.mjs. */
export const GATEWAY_DOCS_DIR = path.join(DIST_DIR, 'gateway-docs');
/** The checkout page's script and style sheet, built by scripts/build-checkout.mjs. */
export const CHECKOUT_DIR = path.join(DIST_DIR, 'checkout');
