#!/usr/bin/env node
// Launcher of the `openweb-exports` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
