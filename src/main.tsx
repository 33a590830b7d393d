import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { Driver } from './ui/driver';
import { installHook } from './ui/hook';
import { start } from './ui/share/share';
import { startWorker } from './worker/client';
import './ui/theme.css';

const api = startWorker();
const driver = new Driver(api);
installHook(driver, api);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App driver={driver} />
  </StrictMode>,
);

void start(driver);
