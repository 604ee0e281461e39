// Leaflet's plugins written for a page's global `L` (the marker clusters) find it here: the bundle
// imports Leaflet as a module, which sets no global of its own. Imported before such a plugin.
import { L } from './map.ts';

(window as unknown as { L: typeof L }).L = L;
