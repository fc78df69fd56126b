// Name pools the generator draws from (fictional brands, so no real operator's name or logo is implied).
// Which names appear, and where, depends on the seed; the pools themselves are fixed.

export const TELCO_BRANDS: readonly string[] = [
  'Voxa',
  'Telvia',
  'Mobira',
  'Zentel',
  'Orbix',
  'Nexacell',
  'Celmax',
  'Vonda',
  'Lumo',
  'Korra',
  'Aerix',
  'Tavo',
  'Solen',
  'Kinnet',
  'Ultra',
  'Pulsar',
  'Brisa',
  'Nimbo',
  'Qonnect',
  'Halo',
  'Ribbit',
  'Zelo',
  'Movix',
  'Tempo',
  'Onda',
  'Vertel',
  'Cirra',
  'Axium',
  'Delta',
  'Fonix',
  'Glint',
  'Juno',
  'Kestrel',
  'Lynx',
  'Marlin',
  'Nova',
];

export const BILLER_BRANDS: readonly string[] = [
  'Clearwater',
  'Brightline',
  'Summit',
  'Riverside',
  'Evergreen',
  'Northstar',
  'Sunridge',
  'Bluepeak',
  'Harbor',
  'Crestview',
  'Ironwood',
  'Silverlake',
];

/** Biller kinds: the English word (translated by the Arabic table) and the SKU subCategory. */
export const BILLER_KINDS: ReadonlyArray<{ word: string; subCategory: string }> = [
  { word: 'Electric', subCategory: 'Electricity' },
  { word: 'Water', subCategory: 'Water' },
  { word: 'Internet', subCategory: 'Internet' },
  { word: 'Cable TV', subCategory: 'Cable TV' },
  { word: 'Gas', subCategory: 'Gas' },
];

export const ESIM_BRANDS: readonly string[] = ['Roamly', 'Skyway', 'Globetrek', 'Airvoy', 'Wanderly', 'Jetlink'];

/** Gift card brands with their subCategory (shopping, gaming, ...). */
export const GIFTCARD_BRANDS: ReadonlyArray<{ name: string; subCategory: string }> = [
  { name: 'ShopNova', subCategory: 'Shopping' },
  { name: 'Marketly', subCategory: 'Shopping' },
  { name: 'Cartwise', subCategory: 'Shopping' },
  { name: 'PixelPlay', subCategory: 'Gaming' },
  { name: 'Questor', subCategory: 'Gaming' },
  { name: 'Arcadia', subCategory: 'Gaming' },
  { name: 'StreamBox', subCategory: 'Streaming' },
  { name: 'Tunewave', subCategory: 'Streaming' },
  { name: 'Cinemax', subCategory: 'Entertainment' },
  { name: 'Bitebox', subCategory: 'Dining' },
  { name: 'Brewhouse', subCategory: 'Dining' },
  { name: 'Readmore', subCategory: 'Entertainment' },
  { name: 'Fitzone', subCategory: 'Shopping' },
  { name: 'Travelo', subCategory: 'Shopping' },
];

export const FIRST_NAMES: readonly string[] = [
  'Andre',
  'Keisha',
  'Ravi',
  'Priya',
  'Imran',
  'Ayesha',
  'Carlos',
  'Lucia',
  'John',
  'Maria',
  'Kwame',
  'Amina',
  'Tomas',
  'Sofia',
  'Omar',
  'Fatima',
];

export const LAST_NAMES: readonly string[] = [
  'Brown',
  'Campbell',
  'Sharma',
  'Patel',
  'Khan',
  'Ahmed',
  'Garcia',
  'Lopez',
  'Smith',
  'Martinez',
  'Mensah',
  'Okafor',
  'Silva',
  'Reyes',
  'Hassan',
  'Ali',
];

export const PROMOTION_KINDS: ReadonlyArray<{ name: string; description: string; restriction: string }> = [
  { name: 'Double Bonus', description: 'Receive double airtime on qualifying top-ups', restriction: 'One bonus per subscriber per day' },
  { name: 'Extra Data Weekend', description: 'Extra data added to every qualifying top-up', restriction: 'Valid on prepaid numbers only' },
  { name: 'Bonus 20 Percent', description: 'A 20 percent airtime bonus on qualifying top-ups', restriction: 'Bonus valid for 7 days' },
  { name: 'Free Minutes', description: 'Free local minutes with every qualifying top-up', restriction: 'Minutes expire after 3 days' },
  { name: 'Triple Data', description: 'Three times the data on qualifying bundles', restriction: 'Not combinable with other promotions' },
];
