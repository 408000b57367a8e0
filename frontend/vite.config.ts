/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

// Content-Security-Policy for the built app only (the dev server injects an
// inline React-refresh preamble that a strict policy would block). Model text
// never reaches innerHTML, and this is the second line of defence.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  // MCP App views only (/appview/…, sandboxed, app/mcphost/views.go); a view's
  // frame cannot be navigated to another site.
  "frame-src 'self'",
  "form-action 'none'",
].join('; ');

function cspMeta(): Plugin {
  return {
    name: 'juncture-csp',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace(
        '<meta charset="UTF-8" />',
        `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
      );
    },
  };
}

// KaTeX's stylesheet lists each font as woff2, woff and ttf. Chromium and
// WebKitGTK take woff2, so the other two would only weigh on the binary
// (about 0.9 MB): the build keeps woff2 alone.
function katexWoff2Only(): Plugin {
  return {
    name: 'juncture-katex-woff2',
    apply: 'build',
    enforce: 'pre', // before Vite's CSS plugin turns the url()s into assets
    transform(code, id) {
      if (!/[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/.test(id)) return null;
      return code.replace(/,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\("(?:woff|truetype)"\)/g, '');
    },
  };
}

// The same build serves the Wails window (embedded assets) and the browser
// mode (served by the Go binary), so every asset path is relative.
export default defineConfig({
  base: './',
  plugins: [react(), cspMeta(), katexWoff2Only()],
  build: {
    outDir: 'dist',
    // Fonts are files, never data: URLs: the CSP allows fonts from 'self' only.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // `npm run dev` against a running `juncture -serve` on 127.0.0.1:18081.
    proxy: {
      '/api': { target: 'http://127.0.0.1:18081', changeOrigin: false },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
    benchmark: { include: ['src/**/*.bench.{ts,tsx}'] },
    pool: 'threads',
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
  },
});
