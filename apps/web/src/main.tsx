import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/Providers.js';
import { AppRoutes } from './app/router.js';
import { i18nReady } from './lib/i18n.js';

const root = document.getElementById('root');
if (root) {
  // The first paint is already in the user's language.
  void i18nReady.then(() =>
    createRoot(root).render(
      <StrictMode>
        <Providers>
          <AppRoutes />
        </Providers>
      </StrictMode>,
    ),
  );
}
