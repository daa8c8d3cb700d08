/** Where the gateway API is served; the version is in the path, as integrators pin it. */
export const GATEWAY_PREFIX = '/gateway/v1';
