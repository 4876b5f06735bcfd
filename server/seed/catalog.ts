/**
 * Reference data of the demo: part numbers in the style of the group's catalogue ("8E0-615-301-A";
 * the main group, first digit of the second segment, sets the price level), child parts
 * ("N-911-455-02") with Chinese names, hazardous chemicals, dealers in Chinese cities, people and
 * phone numbers.
 * Codes are computed from an index (a bijection), so any number of them is unique without a set.
 * The pools are packed a row of values a line (`prettier-ignore`): one value a line would be a page long.
 */
import type { Rng } from './writer.ts';

// prettier-ignore
const PREFIXES = [
  '8E0', '8K0', '4G0', '4M0', '1K0', '5Q0', '3C0', '3G0', '5G0', '6R0', '7L0', '1J0', 'L06', '06H', '06J', '03C', '04E', '0AM', '8V0',
  '81A', '2Q0', '5NA', '3Q0', '3CD', '561', '5C6', '18D', '6RD', '7N0', '4F0', '8W0', '80A', '4K0', '059', '036', '032', '038',
] as const;
const SUFFIXES = ['', '', '', '-A', '-B', '-C', '-D', '-E', '-F', '-AA'] as const;

const CHILD_PREFIXES = ['N', 'N0', 'WHT'] as const;
// prettier-ignore
const CHILD_NAMES = [
  '六角法兰螺栓 M8×25', '六角法兰螺母 M10', '平垫圈', '弹簧垫圈', '塑料卡扣', '膨胀铆钉', 'O型密封圈', '骨架油封', '橡胶衬套', '蜗杆式软管卡箍',
  '线束插接件', '压接端子', '片式保险丝 15A', '卤素灯泡 H7', '门框密封条', '隔音垫', '冲压支架', '塑料堵盖', '导线束', '铜垫片', '自攻螺钉 ST4.2', '双头螺柱',
];

/**
 * Index -> (prefix, segment 2, segment 3) through y = (idx * A + C) mod (prefixes x 900000): a
 * bijection because A (the FNV prime) is coprime to 2, 3, 5 and 37, so codes never repeat while
 * neighbouring indexes still look unrelated.
 */
const A = 16_777_619;
const SEGS = 900_000;

function scramble(idx: number, prefixes: number, c: number): [number, number, number] {
  const m = prefixes * SEGS;
  const y = ((idx % m) * A + c) % m;
  const s = Math.floor(y / prefixes);
  return [y % prefixes, 100 + Math.floor(s / 1000), s % 1000];
}
const p3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** Parent (sellable) part number `idx` (unique for every idx below 33 million). */
export function partCode(idx: number): string {
  const [p, a, b] = scramble(idx, PREFIXES.length, 12345);
  return `${PREFIXES[p]}-${a}-${p3(b)}${SUFFIXES[(idx + a) % SUFFIXES.length]}`;
}

/** List price in CNY, stable per part (engine and body parts dearer). */
export function partPrice(idx: number): number {
  const [, a, b] = scramble(idx, PREFIXES.length, 12345);
  const group = Math.floor(a / 100);
  const unit = group === 1 || group === 4 || group === 8 || group === 9 ? 5 : 2;
  const k = (b * 37 + a) % 600; // skewed: most parts cost tens to a few hundred yuan
  return Math.round((12 + ((k * k) / 600) * unit) * 100 + (b % 100)) / 100;
}

/** Child part (component) number `idx` (unique for every idx below 2.7 million). */
export function childCode(idx: number): string {
  const [p, a, b] = scramble(idx, CHILD_PREFIXES.length, 4321);
  return `${CHILD_PREFIXES[p]}-${a}-${p3(b)}-${p3((idx * 7 + b) % 100).slice(1)}`;
}
export function childName(idx: number): string {
  const [, a, b] = scramble(idx, CHILD_PREFIXES.length, 4321);
  return CHILD_NAMES[(a * 13 + b) % CHILD_NAMES.length];
}

/**
 * Each supplier has its own part numbers: supplier s (0 or 1) owns the indexes idx with
 * idx % 2 === s. `n` is the n-th part of that supplier.
 */
export const supplierPart = (supplierIndex: number, n: number) => n * 2 + supplierIndex;

/** The child parts that go into a parent part (stable: the same parent always has the same children). */
export function childrenOf(supplierIndex: number, parentN: number, childPool: number, k: number): number[] {
  const pool = Math.max(k, childPool);
  const out: number[] = [];
  let c = (parentN * 7) % pool;
  while (out.length < k) {
    if (!out.includes(c)) out.push(c);
    c = (c + 13 + out.length) % pool;
  }
  return out.map((n) => n * 2 + supplierIndex);
}

/* -------------------------------------------------------------------- hazardous chemicals */

export const HAZARD_PARTS = [
  { code: 'G-013-A8J-M1', name: '发动机冷却液 G13 1.5L' },
  { code: 'B-000-750-M3', name: '制动液 DOT4 1L' },
  { code: 'G-052-182-A2', name: '自动变速箱油 ATF 1L' },
  { code: 'G-052-529-A2', name: '双离合变速箱油 DSG 1L' },
  { code: 'G-052-164-M2', name: '玻璃清洗液 浓缩型 1L' },
  { code: 'G-052-195-M4', name: '发动机机油 5W-40 4L' },
  { code: 'G-052-577-M4', name: '发动机机油 0W-20 4L' },
  { code: 'G-052-560-R2', name: '空调制冷剂 R134a 500g' },
  { code: 'D-154-103-A1', name: '油漆稀释剂 1L' },
  { code: 'D-009-500-A2', name: '聚氨酯玻璃胶 310ml' },
  { code: 'G-060-MKE-A1', name: '化油器清洗剂 气雾罐 500ml' },
  { code: 'G-052-145-S2', name: '动力转向油 1L' },
] as const;

/* -------------------------------------------------------------------- dealers and places */

// prettier-ignore
const CITIES = [
  // [province, city, area code (dealerArea key)]
  ['上海市', '上海', 'east'], ['浙江省', '杭州', 'east'], ['江苏省', '南京', 'east'], ['江苏省', '苏州', 'east'], ['浙江省', '宁波', 'east'],
  ['安徽省', '合肥', 'east'], ['山东省', '济南', 'east'], ['山东省', '青岛', 'east'], ['福建省', '福州', 'east'],
  ['广东省', '广州', 'south'], ['广东省', '深圳', 'south'], ['广东省', '东莞', 'south'], ['广东省', '佛山', 'south'], ['广西壮族自治区', '南宁', 'south'],
  ['福建省', '厦门', 'south'], ['海南省', '海口', 'south'],
  ['四川省', '成都', 'west'], ['重庆市', '重庆', 'west'], ['陕西省', '西安', 'west'], ['云南省', '昆明', 'west'], ['贵州省', '贵阳', 'west'], ['甘肃省', '兰州', 'west'],
  ['北京市', '北京', 'north'], ['天津市', '天津', 'north'], ['辽宁省', '沈阳', 'north'], ['辽宁省', '大连', 'north'], ['黑龙江省', '哈尔滨', 'north'],
  ['吉林省', '长春', 'north'], ['河北省', '石家庄', 'north'], ['山西省', '太原', 'north'],
  ['湖北省', '武汉', 'centre'], ['湖南省', '长沙', 'centre'], ['河南省', '郑州', 'centre'], ['江西省', '南昌', 'centre'],
] as const;
const GROUPS = ['永达', '中升', '广汇', '庞大', '利星行', '元通', '建国', '东创', '宝利德', '大昌行', '和谐', '正通', '恒信', '润华', '申湘', '物产'] as const;
const DEALER_KINDS = ['汽车销售服务有限公司', '汽车贸易有限公司', '汽车服务有限公司', '汽车销售有限公司'] as const;
const DISTRICTS = ['经济技术开发区', '高新技术产业开发区', '新区', '汽车城', '工业园区'] as const;
const ROADS = ['汽车城大道', '建设路', '人民路', '解放大道', '中山路', '长江路', '黄河路', '迎宾大道', '科技大道', '工业大道'] as const;
const SURNAMES = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕'.split('');
// prettier-ignore
const GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平', '刚', '桂英', '建华', '志强', '海燕', '晓东', '春梅', '文博', '思远', '雪', '鹏', '浩然'];
const MOBILE_PREFIXES = ['130', '131', '133', '135', '136', '137', '138', '139', '150', '151', '158', '159', '177', '180', '186', '188', '189'];
// prettier-ignore
const CITY_AREA_CODES: Record<string, string> = { 上海: '021', 北京: '010', 广州: '020', 深圳: '0755', 杭州: '0571', 南京: '025', 成都: '028', 重庆: '023', 武汉: '027', 西安: '029', 天津: '022', 沈阳: '024' };

export interface Dealer {
  code: string;
  name: string;
  shortName: string;
  city: string;
  area: string;
  address: string;
  warehouse: string;
  contact: string;
  phone: string;
}

export function personName(r: Rng): string {
  return r.pick(SURNAMES) + r.pick(GIVEN);
}
export function mobile(r: Rng): string {
  return r.pick(MOBILE_PREFIXES) + String(r.int(10_000_000, 99_999_999));
}
export function telephone(r: Rng, city: string): string {
  const ac = CITY_AREA_CODES[city] ?? '0' + String(r.int(310, 898));
  return `${ac}-${r.int(50_000_000, 89_999_999)}`;
}

/** `n` dealers, spread over the cities (and so the five dealer areas). */
export function makeDealers(r: Rng, n: number): Dealer[] {
  const out: Dealer[] = [];
  for (let i = 0; i < n; i++) {
    const [province, city, area] = CITIES[i % CITIES.length];
    const group = GROUPS[(i * 5 + Math.floor(i / CITIES.length)) % GROUPS.length];
    const branch = Math.floor(i / CITIES.length) % 4;
    const shortName = `${city}${group}${['', '二店', '三店', '四店'][branch]}`;
    const areaDigit = ['east', 'south', 'west', 'north', 'centre'].indexOf(area);
    out.push({
      code: `76${areaDigit}${String(1001 + i).padStart(4, '0')}`,
      name: `${city}${group}${DEALER_KINDS[i % DEALER_KINDS.length]}${['', '第二分公司', '第三分公司', '第四分公司'][branch]}`,
      shortName,
      city,
      area,
      address: `${province}${province.startsWith(city) ? '' : `${city}市`}${r.pick(DISTRICTS)}${r.pick(ROADS)}${r.int(1, 999)}号`,
      warehouse: `${shortName}配件库`,
      contact: personName(r),
      phone: r.chance(0.7) ? mobile(r) : telephone(r, city),
    });
  }
  return out;
}
