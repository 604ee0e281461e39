import type { Generated } from 'kysely';
import type { LayerDefinition, MapStyle, ZoneGeometry } from './schemas.ts';

export interface MapsTables {
  /** A business's custom map: its style and its layers, seen by staff or, published, by its link. */
  maps: {
    id: Generated<number>;
    business_id: number;
    name: string;
    style: MapStyle;
    /** The layers in drawing order (the first is drawn at the bottom). */
    layers: LayerDefinition[];
    visibility: Generated<'authenticated' | 'public'>;
    /** SHA-256 of the public link id, while the map is published; the id itself is never stored. */
    link_hash: Buffer | null;
    /** Origins of the sites that may frame the published map (CSP frame-ancestors). */
    embed_origins: Generated<string[]>;
    published_at: Date | null;
    created_at: Date;
    updated_at: Date;
  };
  /** A service zone the business uploaded: a checked GeoJSON Polygon or MultiPolygon. */
  service_zones: {
    id: Generated<number>;
    business_id: number;
    name: string;
    geometry: ZoneGeometry;
    vertices: number;
    created_at: Date;
    updated_at: Date;
  };
}
