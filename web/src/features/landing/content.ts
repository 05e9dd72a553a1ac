/** Landing page texts (spec §1): 4 strengths, 5 sample reviews (masked), hashtags. */
export const landingText = {
  eyebrow: '국내 소셜 마케팅 패널',
  headline: '좋아요·팔로워·조회수,\n25시간 자동 주문으로 꾸준하게',
  sub: '인스타그램, 유튜브, 틱톡, 네이버 블로그까지. 링크만 입력하면 주문이 바로 접수되고, 자동 주문은 잠들어 있는 동안에도 25시간 쉬지 않고 반복됩니다.',
  login: '로그인',
  register: '무료 회원가입',
  browse: '둘러보기',
  claimTitle: '25시간 자동 주문',
  claimBody: '하루 24시간에 1시간을 더했습니다. 자동 주문을 켜 두면 정해 둔 간격마다 같은 수량이 쉬지 않고 다시 주문됩니다.',
  strengthsTitle: '그로우패널을 선택하는 이유',
  reviewsTitle: '이용 후기',
  prev: '이전',
  next: '다음',
  slide: (n: number, total: number) => `${total}개 중 ${n}번째`,
} as const;

export const strengths = [
  { icon: 'bolt', title: '주문 즉시 자동 접수', body: '결제와 동시에 작업이 접수되어 평균 10분~1시간 안에 시작됩니다.' },
  { icon: 'repeat', title: '25시간 자동 주문', body: '반복 횟수와 간격만 정하면 같은 수량이 자동으로 계속 주문됩니다.' },
  { icon: 'shield', title: '안전한 진행과 환불', body: '작업이 일부만 끝나면 남은 만큼, 취소되면 전액 포인트로 환불됩니다.' },
  { icon: 'chat', title: '실시간 상담', body: '카카오톡 채널로 주문 전후 궁금한 점을 바로 물어볼 수 있습니다.' },
] as const;

export const reviews = [
  { name: '김*연', date: '2026-10-02', text: '인스타 릴스 조회수 주문했는데 한 시간도 안 돼서 시작됐어요. 가격도 부담 없어서 계속 쓰고 있습니다.' },
  { name: '박*호', date: '2026-09-18', text: '유튜브 채널 초기에 구독자 늘릴 때 도움 많이 받았습니다. 천천히 들어와서 오히려 자연스러웠어요.' },
  { name: '이*진', date: '2026-10-11', text: '자동 주문 기능이 정말 편해요. 새 게시물 올릴 때마다 신경 쓸 필요 없이 알아서 반복됩니다.' },
  { name: '최*우', date: '2026-08-27', text: '네이버 블로그 공감 주문했는데 실제 계정으로 들어와서 만족합니다. 상담 답변도 빨랐어요.' },
  { name: '정*아', date: '2026-10-20', text: '가게 홍보용 틱톡 계정 운영 중인데 충전도 간단하고 내역 확인이 깔끔해서 좋아요.' },
] as const;

export const hashtags = ['#인스타좋아요', '#인스타팔로워', '#유튜브구독자', '#유튜브조회수', '#틱톡조회수', '#릴스조회수', '#네이버블로그', '#스레드팔로워', '#자동주문', '#25시간'];
