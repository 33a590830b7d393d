/// <reference lib="webworker" />
import { expose } from 'comlink';
import { FairgroundApi } from './api';

expose(new FairgroundApi());
