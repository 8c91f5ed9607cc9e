import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** In development the API runs on :3000 (npm start); Vite forwards API and sign-in calls to it. */
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:3000', '/auth': 'http://localhost:3000', '/readyz': 'http://localhost:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
