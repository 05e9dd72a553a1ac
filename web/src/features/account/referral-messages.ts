import { grouped, won } from '../../lib/format.ts';

/** Korean texts of the account page's referral earnings section. */
export const referralText = {
  title: '추천 적립',
  lead: (rate: number) => `추천으로 가입한 회원의 주문이 완료되면, 실제로 진행된 금액의 ${rate}%가 적립됩니다. 완료 후 환불되면 그만큼 적립도 회수됩니다.`,
  rate: '적립률',
  members: '추천한 회원',
  memberCount: (n: number) => `${grouped(n)}명`,
  earnings: '누적 적립',
  membersNone: '아직 추천으로 가입한 회원이 없습니다.',
  moreMembers: (n: number) => `외 ${grouped(n)}명`,
  history: '적립 내역',
  historyNone: '아직 적립 내역이 없습니다.',
  credit: (sourceDeci: number, rate: number) => `완료된 주문 ${won(sourceDeci)}의 ${rate}% 적립`,
  reversal: (sourceDeci: number) => `환불 ${won(sourceDeci)}에 따른 회수`,
  shortfall: (deci: number) => `이미 사용한 ${won(deci)}은 다음 적립금에서 차감됩니다.`,
  loadFailed: '추천 적립 정보를 불러오지 못했습니다. 잠시 후 다시 시도해 주세요.',
  loading: '불러오는 중…',
  prev: '이전',
  next: '다음',
} as const;
