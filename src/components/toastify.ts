// react-toastify's default build injects its CSS as an inline <style> element, which the portal's
// Content-Security-Policy (`style-src 'self'`, server/src/http/web.ts) blocks. Its unstyled build
// with the CSS file, extracted into the lazy "toasts" chunk's stylesheet, is the same library.
import 'react-toastify/ReactToastify.css';

export * from 'react-toastify/unstyled';
