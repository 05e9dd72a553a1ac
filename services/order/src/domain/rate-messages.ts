import { groupThousands, memberRateLimits } from '@smm/contracts';

/** The Korean texts of rates per member (issue 40), beside the rest of order's in messages.ts. */
export const rateMessages = {
  adminOnly: '회원 단가(할인·지정 단가)는 관리자만 정할 수 있습니다.',
  selfAction: '본인 계정의 단가는 직접 정할 수 없습니다. 다른 관리자에게 요청해 주세요.',
  serviceUnknown: '존재하지 않는 상품입니다. 상품 번호를 확인해 주세요.',
  kindRequired: '할인율(%)과 지정 단가(원) 중 하나만 입력해 주세요.',
  priceNeedsService: '지정 단가는 상품을 골라 정해 주세요. 전체 상품에는 할인율만 정할 수 있습니다.',
  percentInvalid: `할인율은 ${memberRateLimits.minPercent}~${memberRateLimits.maxPercent} 사이의 정수(%)로 입력해 주세요.`,
  priceInvalid: `지정 단가는 0.1원 이상 ${groupThousands(memberRateLimits.maxUnitPriceDeci / 10)}원 이하, 소수점 한 자리까지 입력해 주세요.`,
  scopeInvalid: '삭제할 단가를 찾을 수 없습니다.',
  notFound: '해당 회원 단가가 없습니다.',
  otherMember: '다른 회원의 단가는 조회할 수 없습니다.',
} as const;
