/**
 * Carriers the label reader names: display name and the words printed on labels that name them
 * (matched case-insensitively on word boundaries by the reader).
 */
export const CARRIERS: Record<string, { name: string; keywords: string[] }> = {
  ups: {
    name: 'UPS',
    keywords: ['UPS', 'United Parcel Service', 'UPS Ground', 'UPS Next Day Air', 'Worldship'],
  },
  fedex: { name: 'FedEx', keywords: ['FedEx', 'Federal Express', 'FedEx Ground', 'FedEx Express'] },
  usps: {
    name: 'USPS',
    keywords: ['USPS', 'United States Postal Service', 'U.S. Postal Service', 'Priority Mail'],
  },
  dhl_express: { name: 'DHL Express', keywords: ['DHL', 'DHL Express', 'DHL Paket'] },
  canada_post: {
    name: 'Canada Post',
    keywords: ['Canada Post', 'Postes Canada', 'Xpresspost', 'Expedited Parcel'],
  },
  royal_mail: {
    name: 'Royal Mail',
    keywords: ['Royal Mail', 'Parcelforce', 'Special Delivery', 'Tracked 24', 'Tracked 48'],
  },
  la_poste: { name: 'La Poste', keywords: ['La Poste', 'Colissimo', 'Chronopost', 'Lettre suivie'] },
  deutsche_post: { name: 'Deutsche Post', keywords: ['Deutsche Post', 'Warenpost', 'Einschreiben'] },
  postnl: { name: 'PostNL', keywords: ['PostNL'] },
  bpost: { name: 'bpost', keywords: ['bpost'] },
  correos: { name: 'Correos', keywords: ['Correos'] },
  poste_italiane: { name: 'Poste Italiane', keywords: ['Poste Italiane'] },
  swiss_post: { name: 'Swiss Post', keywords: ['Swiss Post', 'Die Post', 'La Poste Suisse'] },
  austrian_post: { name: 'Austrian Post', keywords: ['Österreichische Post', 'Austrian Post'] },
  poczta_polska: { name: 'Poczta Polska', keywords: ['Poczta Polska'] },
  postnord: { name: 'PostNord', keywords: ['PostNord'] },
  an_post: { name: 'An Post', keywords: ['An Post'] },
  ctt: { name: 'CTT', keywords: ['CTT Expresso', 'CTT Correios'] },
  australia_post: { name: 'Australia Post', keywords: ['Australia Post', 'StarTrack'] },
  japan_post: { name: 'Japan Post', keywords: ['Japan Post'] },
  china_post: { name: 'China Post', keywords: ['China Post'] },
  hongkong_post: { name: 'Hongkong Post', keywords: ['Hongkong Post', 'Hong Kong Post'] },
  singpost: { name: 'SingPost', keywords: ['SingPost', 'Singapore Post'] },
  india_post: { name: 'India Post', keywords: ['India Post', 'Speed Post'] },
  correios: { name: 'Correios', keywords: ['Correios do Brasil', 'Correios'] },
  correos_de_mexico: { name: 'Correos de México', keywords: ['Correos de México', 'Correos de Mexico'] },
  postal_operator: { name: 'Postal operator', keywords: [] },
  unknown: { name: 'Unknown carrier', keywords: [] },
};

/** The postal operator that issues UPU S10 numbers with a given country suffix. */
export const S10_COUNTRY_CARRIERS: Record<string, string> = {
  GB: 'royal_mail',
  FR: 'la_poste',
  CA: 'canada_post',
  US: 'usps',
  DE: 'deutsche_post',
  NL: 'postnl',
  BE: 'bpost',
  ES: 'correos',
  IT: 'poste_italiane',
  CH: 'swiss_post',
  AT: 'austrian_post',
  PL: 'poczta_polska',
  SE: 'postnord',
  DK: 'postnord',
  IE: 'an_post',
  PT: 'ctt',
  AU: 'australia_post',
  JP: 'japan_post',
  CN: 'china_post',
  HK: 'hongkong_post',
  SG: 'singpost',
  IN: 'india_post',
  BR: 'correios',
  MX: 'correos_de_mexico',
};
