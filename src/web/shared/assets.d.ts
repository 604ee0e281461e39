// Stylesheets the apps import: esbuild bundles them into the app's own stylesheet.
declare module '*.css';
