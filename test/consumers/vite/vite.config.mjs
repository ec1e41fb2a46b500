// A fresh Vite app's configuration: nothing Sparkworks-specific (no plugin, no alias).
import { defineConfig } from 'vite';

export default defineConfig({ build: { target: 'es2022' } });
