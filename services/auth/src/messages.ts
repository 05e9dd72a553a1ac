/** Every Korean text this service answers with (spec §5 rules, §8 meanings), in one place. */
export const messages = {
  idRequired: '아이디를 입력해 주세요.',
  idHasSpace: '아이디에는 공백을 사용할 수 없습니다.',
  idReserved: 'naver_ 또는 kakao_로 시작하는 아이디는 사용할 수 없습니다.',
  idTooLong: '아이디는 50자 이하로 입력해 주세요.',
  passwordRequired: '비밀번호를 입력해 주세요.',
  passwordHasSpace: '비밀번호에는 공백을 사용할 수 없습니다.',
  passwordTooLong: '비밀번호는 128자 이하로 입력해 주세요.',
  emailInvalid: '올바른 이메일 주소를 입력해 주세요.',
  registerWhereRequired: '가입 경로를 선택해 주세요.',
  phoneNumberInvalid: '휴대폰 번호 11자리를 숫자로 입력해 주세요.',
  sendCodeRequired: '휴대폰 인증번호를 발송한 뒤 입력해 주세요.',
  sendCodeLength: '인증번호 5자리를 입력해 주세요.',
  codeNotSent: '인증번호를 먼저 발송해 주세요. 인증번호가 만료되었다면 다시 발송해 주세요.',
  codeMismatch: '인증번호가 일치하지 않습니다.',
  codeAttemptsExceeded: '인증번호 입력 횟수를 초과했습니다. 인증번호를 다시 발송해 주세요.',
  referralDisabled: '추천인 코드를 사용할 수 없습니다.',
  referralNotFound: '존재하지 않는 추천인 코드입니다.',

  duplicateId: '이미 사용 중인 아이디입니다.',
  duplicateEmail: '이미 사용 중인 이메일입니다.',
  duplicatePhone: '이미 가입된 휴대폰 번호입니다.',
  duplicateSocial: '이미 가입된 소셜 계정입니다. 로그인해 주세요.',

  codeSentText: (code: string) => `[SMM 패널] 인증번호 [${code}]를 입력해 주세요.`,
  smsSendFailed: '인증번호를 보내지 못했습니다. 잠시 후 다시 시도해 주세요.',
  resendTooSoon: (seconds: number) => `인증번호는 ${seconds}초 후에 다시 받을 수 있습니다.`,
  sendLimitExceeded: '인증번호 발송 횟수를 초과했습니다. 잠시 후 다시 시도해 주세요.',

  invalidCredentials: '아이디 또는 비밀번호가 올바르지 않습니다.',
  tooManyLogins: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.',

  socialLoginDisabled: (provider: string) => `${provider} 로그인을 사용할 수 없습니다.`,
  socialNotConfigured: (provider: string) => `${provider} 로그인 설정이 완료되지 않았습니다. 관리자에게 문의해 주세요.`,
  socialAuthFailed: (provider: string) => `${provider} 인증에 실패했습니다.`,
  socialUnavailable: (provider: string) => `${provider} 로그인에 실패했습니다. 잠시 후 다시 시도해 주세요.`,
  socialNotRegistered: '가입되지 않은 계정입니다. 회원가입을 진행해 주세요.',
  socialCodeRequired: '인증 코드가 없습니다. 다시 로그인해 주세요.',
  socialTokenRequired: '소셜 로그인 정보가 없습니다. 다시 로그인해 주세요.',
  socialTokenInvalid: '소셜 로그인 정보가 만료되었거나 올바르지 않습니다. 다시 로그인해 주세요.',

  currentPasswordRequired: '현재 비밀번호를 입력해 주세요.',
  newPasswordRequired: '새 비밀번호를 입력해 주세요.',
  newPasswordHasSpace: '새 비밀번호에는 공백을 사용할 수 없습니다.',
  currentPasswordDifferent: '현재 비밀번호가 일치하지 않습니다.',
  noPasswordForSocial: '소셜 로그인으로 가입한 계정은 비밀번호를 변경할 수 없습니다.',
  tooManyPasswordChanges: '비밀번호 확인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.',

  referralFeatureOff: '추천인 코드 기능이 꺼져 있어 발급할 수 없습니다.',
  referralAlreadyIssued: '추천인 코드가 이미 발급되었습니다.',

  apiKeyRequired: 'API 키를 입력해 주세요.',
  apiKeyInvalid: '유효하지 않은 API 키입니다.',

  callerRequired: '로그인이 필요합니다.',
  memberNotFound: '회원 정보를 찾을 수 없습니다.',
} as const;
