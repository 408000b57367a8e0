/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync, constants as zc } from 'node:zlib';

// Content-Security-Policy for the built app only (the dev server injects an
// inline Prefresh (hot reload) preamble that a strict policy would block). Model text
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

// Mermaid registers ELK as an opt-in layout (a diagram that asks for
// `layout: elk`); its chunk is elkjs, 1.5 MB (0.46 MB gzipped), the largest
// file of the build. Without that registration such a diagram is laid out
// by dagre, mermaid's own fallback (getRegisteredLayoutAlgorithm), as in
// mermaid's tiny build. A mermaid whose code no longer matches fails the
// build rather than bringing the chunk back unnoticed.
function mermaidWithoutElk(): Plugin {
  let seen = false;
  return {
    name: 'juncture-mermaid-no-elk',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]mermaid[\\/]dist[\\/]/.test(id) || !code.includes('var elkLayoutLoaders')) return null;
      const out = code.replace('...elkLayoutLoaders()', '');
      if (out === code) this.error('mermaid no longer spreads elkLayoutLoaders(): update mermaidWithoutElk');
      seen = true;
      return { code: out, map: null };
    },
    buildEnd() {
      if (!seen) this.error('no mermaid module defines elkLayoutLoaders: update mermaidWithoutElk');
    },
  };
}

// The built files are embedded in the binary (frontend/embed.go). Each one
// but index.html (internal/framegate rewrites it) that gzip shrinks by a
// tenth or more is stored as name.gz instead, ~6.4 MB becoming ~1.9 MB:
// internal/gzfs serves it under its plain name (inflated for the desktop
// window, as stored to a browser that accepts gzip). Fonts (woff2) are
// already compressed and stay as they are.
function gzipDist(dir: string): { files: number; before: number; after: number } {
  let files = 0;
  let before = 0;
  let after = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
        continue;
      }
      if (relative(dir, p) === 'index.html' || p.endsWith('.gz')) continue;
      const plain = readFileSync(p);
      const z = gzipSync(plain, { level: zc.Z_BEST_COMPRESSION });
      if (z.length > plain.length * 0.9) continue;
      writeFileSync(`${p}.gz`, z);
      unlinkSync(p);
      files++;
      before += plain.length;
      after += z.length;
    }
  };
  walk(dir);
  return { files, before, after };
}

function gzipEmbedded(): Plugin {
  let outDir = 'dist';
  return {
    name: 'juncture-gzip-embedded',
    apply: 'build',
    configResolved(c) {
      outDir = resolve(c.root, c.build.outDir);
    },
    closeBundle() {
      const r = gzipDist(outDir);
      const mb = (n: number) => (n / 1e6).toFixed(2);
      console.log(`gzip: ${r.files} files stored as .gz, ${mb(r.before)} MB → ${mb(r.after)} MB`);
    },
  };
}

// The same build serves the Wails window (embedded assets) and the browser
// mode (served by the Go binary), so every asset path is relative.
export default defineConfig({
  base: './',
  plugins: [preact(), cspMeta(), katexWoff2Only(), mermaidWithoutElk(), gzipEmbedded()],
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
    // Vitest runs node_modules as they are, where the aliases do not apply:
    // react-markdown's JSX must resolve to Preact's runtime as in the build.
    server: { deps: { inline: ['react-markdown'] } },
    testTimeout: 30_000,
    benchmark: { include: ['src/**/*.bench.{ts,tsx}'] },
    pool: 'threads',
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
  },
});
