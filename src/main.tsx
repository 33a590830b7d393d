import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './csp';
import { App } from './ui/App';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { installErrorHandlers } from './ui/errors';
import { Driver } from './ui/driver';
import { installHook } from './ui/hook';
import { start } from './ui/share/share';
import { startSimulation } from './worker/client';
import './ui/theme.css';

installErrorHandlers();
const { api } = startSimulation();
const driver = new Driver(api);
installHook(driver, api);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <ErrorBoundary>
      <App driver={driver} />
    </ErrorBoundary>
  </StrictMode>,
);

void start(driver);
