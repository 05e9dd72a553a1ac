export default function RegisterPage({ provider }: { provider: 'naver' | 'kakao' | null }) {
  return <div>Register {provider}</div>;
}
