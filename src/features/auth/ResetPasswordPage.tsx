// Placeholder until the feature slice lands.
export default function ResetPasswordPage() {
  return <h1 className="h3">Reset Password</h1>;
}
