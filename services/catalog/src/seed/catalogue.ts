import type { ServiceType } from '@smm/contracts';

/**
 * The catalogue a fresh installation starts with. Each item has a stable seed key: once seeded,
 * the operator owns it (edits and deletions are never undone by a later start). Prices are won
 * strings with at most one decimal digit, exactly as an operator would type them.
 */
export type SeedService = {
  key: string;
  /** Default when absent (service-types.ts). */
  type?: ServiceType;
  text: string;
  min: number;
  max: number;
  price: string;
  notice: string;
  enableAuto?: boolean;
  isReadOnly?: boolean;
  visible?: boolean;
};
export type SeedCategory = { key: string; text: string; services: SeedService[] };
export type SeedPlatform = { key: string; id: number; text: string; background: string; visible: boolean; categories: SeedCategory[] };

const start = '작업은 주문 후 평균 10분~1시간 안에 시작됩니다.';
const publicOnly = '비공개 계정·게시물은 작업이 불가하며, 진행 중 비공개로 바꾸면 환불되지 않습니다.';

export const seedPlatforms: SeedPlatform[] = [
  {
    key: 'instagram', id: 1, text: '인스타그램', background: '#E1306C', visible: true,
    categories: [
      {
        key: 'instagram/likes', text: '좋아요', services: [
          { key: 'instagram/likes/korean', text: '인스타그램 한국인 좋아요', min: 10, max: 10000, price: '2.5', enableAuto: true, notice: `실제 한국인 계정이 누르는 좋아요입니다. ${start} 게시물 링크(https://www.instagram.com/p/...)를 입력해 주세요. ${publicOnly}` },
          { key: 'instagram/likes/global', text: '인스타그램 외국인 좋아요', min: 50, max: 50000, price: '0.8', enableAuto: true, notice: `해외 계정 좋아요입니다. 빠른 속도로 유입되며 일부 이탈이 있을 수 있습니다. ${publicOnly}` },
          { key: 'instagram/likes/korean-package-1000', type: 'package', text: '인스타그램 한국인 좋아요 1,000개 패키지', min: 1000, max: 1000, price: '2200', notice: `한국인 좋아요 1,000개를 한 번에 주문하는 패키지 상품입니다. 가격은 패키지 1개 가격입니다. ${publicOnly}` },
        ],
      },
      {
        key: 'instagram/followers', text: '팔로워', services: [
          { key: 'instagram/followers/korean', text: '인스타그램 한국인 팔로워', min: 10, max: 5000, price: '45', notice: `실제 한국인 계정 팔로워입니다. 하루 약 300~500명씩 나누어 유입됩니다. 프로필 아이디 또는 프로필 링크를 입력해 주세요. ${publicOnly}` },
          { key: 'instagram/followers/global', text: '인스타그램 외국인 팔로워', min: 100, max: 30000, price: '6.5', notice: `해외 계정 팔로워입니다. 30일 이내 이탈분은 1회 무료 재충전됩니다. ${publicOnly}` },
        ],
      },
      {
        key: 'instagram/views', text: '조회수', services: [
          { key: 'instagram/views/reels', text: '인스타그램 릴스 조회수', min: 100, max: 1000000, price: '0.3', enableAuto: true, notice: `릴스 게시물 링크를 입력해 주세요. ${start}` },
        ],
      },
      {
        key: 'instagram/comments', text: '댓글', services: [
          { key: 'instagram/comments/korean-random', text: '인스타그램 한국인 랜덤 댓글', min: 5, max: 500, price: '120', notice: '게시물 분위기에 맞는 한국어 댓글이 자연스럽게 달립니다. 댓글 내용은 지정할 수 없습니다.' },
          { key: 'instagram/comments/korean-custom', type: 'custom-comments', text: '인스타그램 한국인 댓글 직접 입력', min: 5, max: 200, price: '250', notice: '입력한 댓글이 한 줄에 하나씩 그대로 달립니다. 주문 수량은 입력한 댓글 줄 수입니다. 욕설·광고성 문구는 작업되지 않습니다.' },
          { key: 'instagram/comments/comment-likes', type: 'comment-likes', text: '인스타그램 댓글 좋아요', min: 20, max: 5000, price: '3', notice: '게시물 링크와 좋아요를 받을 댓글 작성자의 아이디를 입력해 주세요. 해당 작성자의 가장 최근 댓글에 좋아요가 달립니다.' },
        ],
      },
    ],
  },
  {
    key: 'youtube', id: 2, text: '유튜브', background: '#FF0000', visible: true,
    categories: [
      {
        key: 'youtube/subscribers', text: '구독자', services: [
          { key: 'youtube/subscribers/korean', text: '유튜브 한국인 구독자', min: 10, max: 3000, price: '90', notice: '채널 링크(https://www.youtube.com/@채널명)를 입력해 주세요. 하루 약 50~100명씩 천천히 유입되어 안전합니다.' },
        ],
      },
      {
        key: 'youtube/views', text: '조회수', services: [
          { key: 'youtube/views/standard', text: '유튜브 조회수', min: 100, max: 1000000, price: '3.5', enableAuto: true, notice: `영상 링크를 입력해 주세요. 쇼츠는 별도 상품을 이용해 주세요. ${start}` },
          { key: 'youtube/views/shorts', text: '유튜브 쇼츠 조회수', min: 100, max: 1000000, price: '1.2', enableAuto: true, notice: '쇼츠 링크(https://www.youtube.com/shorts/...)를 입력해 주세요.' },
        ],
      },
      {
        key: 'youtube/likes', text: '좋아요', services: [
          { key: 'youtube/likes/korean', text: '유튜브 한국인 좋아요', min: 10, max: 5000, price: '15', notice: '영상 링크를 입력해 주세요. 좋아요 수가 숨김 처리된 영상도 작업은 정상 진행됩니다.' },
        ],
      },
      {
        key: 'youtube/watch-time', text: '시청 시간', services: [
          { key: 'youtube/watch-time/4000h', text: '유튜브 시청 시간 (수익 창출 조건)', min: 100, max: 4000, price: '95', isReadOnly: true, notice: '현재 물량 점검으로 주문을 잠시 받지 않습니다. 재개되면 공지사항으로 알려 드립니다. (단위: 1시간)' },
        ],
      },
    ],
  },
  {
    key: 'tiktok', id: 3, text: '틱톡', background: '#010101', visible: true,
    categories: [
      {
        key: 'tiktok/followers', text: '팔로워', services: [
          { key: 'tiktok/followers/global', text: '틱톡 팔로워', min: 50, max: 20000, price: '8', notice: '틱톡 프로필 링크(https://www.tiktok.com/@아이디)를 입력해 주세요.' },
        ],
      },
      {
        key: 'tiktok/views', text: '조회수', services: [
          { key: 'tiktok/views/standard', text: '틱톡 조회수', min: 100, max: 5000000, price: '0.2', enableAuto: true, notice: `영상 링크를 입력해 주세요. ${start}` },
        ],
      },
      {
        key: 'tiktok/likes', text: '좋아요', services: [
          { key: 'tiktok/likes/global', text: '틱톡 좋아요', min: 50, max: 50000, price: '1.5', enableAuto: true, notice: '영상 링크를 입력해 주세요. 대량 주문은 나누어 진행됩니다.' },
        ],
      },
    ],
  },
  {
    key: 'facebook', id: 4, text: '페이스북', background: '#1877F2', visible: true,
    categories: [
      {
        key: 'facebook/page-likes', text: '페이지 좋아요', services: [
          { key: 'facebook/page-likes/global', text: '페이스북 페이지 좋아요·팔로우', min: 100, max: 20000, price: '9.5', notice: '페이지 링크를 입력해 주세요. 개인 프로필은 작업할 수 없습니다.' },
        ],
      },
      {
        key: 'facebook/post-likes', text: '게시물 좋아요', services: [
          { key: 'facebook/post-likes/korean', text: '페이스북 한국인 게시물 좋아요', min: 10, max: 3000, price: '12', notice: '전체 공개 게시물 링크를 입력해 주세요.' },
        ],
      },
    ],
  },
  {
    key: 'naver-blog', id: 5, text: '네이버 블로그', background: '#03C75A', visible: true,
    categories: [
      {
        key: 'naver-blog/neighbors', text: '이웃 추가', services: [
          { key: 'naver-blog/neighbors/korean', text: '네이버 블로그 서로이웃 추가', min: 10, max: 1000, price: '60', notice: '블로그 주소(https://blog.naver.com/아이디)를 입력해 주세요. 서로이웃 신청 수락은 직접 해 주셔야 합니다.' },
        ],
      },
      {
        key: 'naver-blog/likes', text: '공감', services: [
          { key: 'naver-blog/likes/korean', text: '네이버 블로그 공감', min: 10, max: 2000, price: '25', enableAuto: true, notice: '게시글 링크를 입력해 주세요. 실제 네이버 계정으로 진행됩니다.' },
        ],
      },
      {
        key: 'naver-blog/views', text: '방문자', services: [
          { key: 'naver-blog/views/visitors', text: '네이버 블로그 방문자', min: 100, max: 50000, price: '2', notice: '게시글 링크를 입력해 주세요. 하루 방문자 수 통계에 반영됩니다.' },
        ],
      },
    ],
  },
  {
    key: 'twitter', id: 6, text: '트위터(X)', background: '#000000', visible: true,
    categories: [
      {
        key: 'twitter/followers', text: '팔로워', services: [
          { key: 'twitter/followers/global', text: '트위터(X) 팔로워', min: 100, max: 10000, price: '18', notice: '프로필 링크(https://x.com/아이디)를 입력해 주세요.' },
        ],
      },
      {
        key: 'twitter/likes', text: '좋아요', services: [
          { key: 'twitter/likes/global', text: '트위터(X) 마음에 들어요', min: 50, max: 10000, price: '4.5', notice: '게시물 링크를 입력해 주세요.' },
        ],
      },
    ],
  },
  {
    key: 'threads', id: 7, text: '스레드', background: '#101010', visible: true,
    categories: [
      {
        key: 'threads/followers', text: '팔로워', services: [
          { key: 'threads/followers/korean', text: '스레드 한국인 팔로워', min: 10, max: 3000, price: '50', notice: '스레드 프로필 링크(https://www.threads.net/@아이디)를 입력해 주세요.' },
        ],
      },
      {
        key: 'threads/likes', text: '좋아요', services: [
          { key: 'threads/likes/korean', text: '스레드 한국인 좋아요', min: 10, max: 5000, price: '3.5', enableAuto: true, notice: '게시물 링크를 입력해 주세요.' },
        ],
      },
    ],
  },
  {
    key: 'kakaostory', id: 8, text: '카카오스토리', background: '#FFCD00', visible: false,
    categories: [
      {
        key: 'kakaostory/likes', text: '좋아요', services: [
          { key: 'kakaostory/likes/korean', text: '카카오스토리 느낌(좋아요)', min: 10, max: 1000, price: '30', notice: '스토리 게시물 링크를 입력해 주세요. 현재 물량이 적어 플랫폼을 잠시 숨겨 두었습니다.' },
        ],
      },
    ],
  },
];
