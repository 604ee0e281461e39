import type { Language } from '../../platform/i18n/index.ts';

// The maps pages' words, in the six languages of the service.

export type MapsTextKey =
  | 'title'
  | 'signInHint'
  | 'yourMaps'
  | 'noMaps'
  | 'public'
  | 'staffOnly'
  | 'layers'
  | 'mapOf'
  | 'truncated'
  | 'notFoundTitle'
  | 'back';

export const MAPS_TEXTS: Record<Language, Record<MapsTextKey, string>> = {
  en: {
    title: 'Maps',
    signInHint: 'Sign in with your business account to see its maps.',
    yourMaps: 'Your business’s maps',
    noMaps: 'No map yet. Maps are made through the API (create_map).',
    public: 'Published',
    staffOnly: 'Staff only',
    layers: 'Layers',
    mapOf: 'Map: {name}',
    truncated: 'more than shown',
    notFoundTitle: 'This map is not available',
    back: 'All maps',
  },
  fr: {
    title: 'Cartes',
    signInHint: 'Connectez-vous avec votre compte d’entreprise pour voir ses cartes.',
    yourMaps: 'Les cartes de votre entreprise',
    noMaps: 'Aucune carte pour l’instant. Les cartes se créent par l’API (create_map).',
    public: 'Publiée',
    staffOnly: 'Personnel seulement',
    layers: 'Calques',
    mapOf: 'Carte : {name}',
    truncated: 'plus que ce qui est affiché',
    notFoundTitle: 'Cette carte n’est pas disponible',
    back: 'Toutes les cartes',
  },
  de: {
    title: 'Karten',
    signInHint: 'Melden Sie sich mit Ihrem Unternehmenskonto an, um seine Karten zu sehen.',
    yourMaps: 'Die Karten Ihres Unternehmens',
    noMaps: 'Noch keine Karte. Karten werden über die API angelegt (create_map).',
    public: 'Veröffentlicht',
    staffOnly: 'Nur für Mitarbeitende',
    layers: 'Ebenen',
    mapOf: 'Karte: {name}',
    truncated: 'mehr als angezeigt',
    notFoundTitle: 'Diese Karte ist nicht verfügbar',
    back: 'Alle Karten',
  },
  es: {
    title: 'Mapas',
    signInHint: 'Inicie sesión con su cuenta de empresa para ver sus mapas.',
    yourMaps: 'Los mapas de su empresa',
    noMaps: 'Aún no hay mapas. Los mapas se crean con la API (create_map).',
    public: 'Publicado',
    staffOnly: 'Solo personal',
    layers: 'Capas',
    mapOf: 'Mapa: {name}',
    truncated: 'más de lo mostrado',
    notFoundTitle: 'Este mapa no está disponible',
    back: 'Todos los mapas',
  },
  'zh-Hans': {
    title: '地图',
    signInHint: '使用企业账号登录，查看企业的地图。',
    yourMaps: '贵企业的地图',
    noMaps: '还没有地图。地图通过 API 创建（create_map）。',
    public: '已发布',
    staffOnly: '仅员工可见',
    layers: '图层',
    mapOf: '地图：{name}',
    truncated: '未全部显示',
    notFoundTitle: '此地图不可用',
    back: '全部地图',
  },
  'zh-Hant': {
    title: '地圖',
    signInHint: '使用企業帳號登入，查看企業的地圖。',
    yourMaps: '貴企業的地圖',
    noMaps: '還沒有地圖。地圖透過 API 建立（create_map）。',
    public: '已發布',
    staffOnly: '僅員工可見',
    layers: '圖層',
    mapOf: '地圖：{name}',
    truncated: '未全部顯示',
    notFoundTitle: '此地圖無法使用',
    back: '全部地圖',
  },
};
