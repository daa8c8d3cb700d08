// Placeholder until the feature slice lands.
export default function RegisterPage() {
  return <h1 className="h3">Sign Up</h1>;
}
