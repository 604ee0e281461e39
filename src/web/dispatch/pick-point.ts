import type { L } from '../shared/map.ts';

export interface Point {
  lat: number;
  lng: number;
}

/**
 * Waits for one click on the map and answers where it fell; Escape answers null. The map shows a
 * crosshair meanwhile, so the person knows the next click places something.
 */
export function pickPoint(map: L.Map | null): Promise<Point | null> {
  if (!map) return Promise.resolve(null);
  const container = map.getContainer();
  return new Promise((settle) => {
    const done = (point: Point | null) => {
      map.off('click', onClick);
      document.removeEventListener('keydown', onKey, true);
      container.classList.remove('picking');
      settle(point);
    };
    const onClick = (event: L.LeafletMouseEvent) => done({ lat: event.latlng.lat, lng: event.latlng.lng });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') done(null);
    };
    container.classList.add('picking');
    map.on('click', onClick);
    document.addEventListener('keydown', onKey, true);
  });
}
