import { useEffect, useState } from 'react';

type Status = 'checking' | 'ready' | 'unavailable';

/**
 * The first page of the web app: it confirms the server and its database answer. The full
 * application shell (sign-in, layouts, navigation, languages) replaces it.
 */
export function App() {
  const [status, setStatus] = useState<Status>('checking');

  useEffect(() => {
    fetch('/readyz')
      .then((response) => setStatus(response.ok ? 'ready' : 'unavailable'))
      .catch(() => setStatus('unavailable'));
  }, []);

  return (
    <main className="landing">
      <h1>Mustard</h1>
      <p>School and business management</p>
      <p className={`status status-${status}`} data-testid="server-status">
        {status === 'checking' ? 'Checking the server…' : status === 'ready' ? 'The server is ready.' : 'The server is not reachable.'}
      </p>
    </main>
  );
}
