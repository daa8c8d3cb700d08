// Placeholder until the feature slice lands.
export default function ChangePasswordPage() {
  return <h1 className="h3">Change Password</h1>;
}
