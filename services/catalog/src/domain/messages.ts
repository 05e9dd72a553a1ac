/**
 * Every Korean text this service answers with, in one place (house rule 7). The BFF shows
 * `message` as it is, so these are written for operators and members, not for developers.
 */
export const messages = {
  adminOnly: '관리자만 사용할 수 있습니다.',
  nothingToUpdate: '변경할 내용을 입력해 주세요.',
  textRequired: '이름을 입력해 주세요.',
  textTooLong: '이름은 100자 이하로 입력해 주세요.',
  idInvalid: '번호는 1 이상의 정수여야 합니다.',

  platformIdRange: '플랫폼 번호는 1부터 14 사이의 정수여야 합니다.',
  platformExists: '이미 등록된 플랫폼 번호입니다.',
  platformNotFound: '플랫폼을 찾을 수 없습니다.',
  unknownPlatform: '존재하지 않는 플랫폼입니다.',
  platformHasCategories: '카테고리가 있는 플랫폼은 삭제할 수 없습니다. 카테고리를 먼저 삭제하거나 다른 플랫폼으로 옮겨 주세요.',
  colorInvalid: '색상은 #RRGGBB 형식으로 입력해 주세요.',
  visibleInvalid: '노출 여부는 true 또는 false로 입력해 주세요.',

  categoryNotFound: '카테고리를 찾을 수 없습니다.',
  unknownCategory: '존재하지 않는 카테고리입니다.',
  categoryHasServices: '서비스가 등록된 카테고리는 삭제할 수 없습니다. 서비스를 먼저 삭제하거나 다른 카테고리로 옮겨 주세요.',

  serviceNotFound: '서비스를 찾을 수 없습니다.',
  minInvalid: '최소 수량은 1 이상의 정수여야 합니다.',
  maxInvalid: '최대 수량은 1 이상의 정수여야 합니다.',
  quantityTooLarge: '수량은 100,000,000개 이하로 입력해 주세요.',
  minAboveMax: '최소 수량은 최대 수량보다 클 수 없습니다.',
  priceInvalid: '단가는 0보다 큰 금액으로, 소수점 첫째 자리까지만 입력할 수 있습니다.',
  priceTooHigh: '단가는 1,000,000원 이하로 입력해 주세요.',
  noticeTooLong: '안내 문구는 5,000자 이하로 입력해 주세요.',
  flagInvalid: '사용 여부는 true 또는 false로 입력해 주세요.',
  typeInvalid: '상품 유형은 기본, 댓글 직접 입력, 패키지, 멘션(아이디 목록), 댓글 좋아요 중 하나여야 합니다.',
  autoNeedsDefaultType: '자동 주문은 기본 유형(링크 + 수량) 상품에만 켤 수 있습니다.',
  packageQuantity: '패키지 상품은 최소 수량과 최대 수량을 같은 값(패키지 하나의 수량)으로 입력해 주세요.',

  noticeContentRequired: '공지 내용을 입력해 주세요.',
  noticeContentTooLong: '공지 내용은 5,000자 이하로 입력해 주세요.',
  noticeNotFound: '공지사항을 찾을 수 없습니다.',
  faqTitleRequired: '질문을 입력해 주세요.',
  faqAnswerRequired: '답변을 입력해 주세요.',
  faqTooLong: '질문은 200자, 답변은 5,000자 이하로 입력해 주세요.',
  faqNotFound: '자주 묻는 질문을 찾을 수 없습니다.',
  registerWhereNotFound: '가입 경로 항목을 찾을 수 없습니다.',

  unknownSetting: '알 수 없는 설정 항목입니다.',
  settingFlagInvalid: '사용 여부 설정은 true 또는 false로 입력해 주세요.',
  settingColorInvalid: '색상 설정은 #RRGGBB 형식으로 입력해 주세요.',
  settingUrlInvalid: '주소 설정은 http:// 또는 https://로 시작해야 합니다.',
  settingBankCodeInvalid: '은행 코드는 숫자 3자리로 입력해 주세요.',
  settingReferralRateInvalid: '추천 적립률은 0~50 사이의 정수(%)로 입력해 주세요.',
  settingCountInvalid: '정수로 입력해 주세요. 허용 범위',
  settingValueInvalid: '설정 값은 2,000자 이하의 문자열이어야 합니다.',
  settingsEmpty: '변경할 설정을 하나 이상 입력해 주세요.',

  reorderEmpty: '순서를 바꿀 항목을 하나 이상 보내 주세요.',
  reorderDuplicate: '순서 목록에 같은 항목이 두 번 들어 있습니다.',
} as const;

export type MessageKey = keyof typeof messages;
