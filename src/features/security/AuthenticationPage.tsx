// Placeholder until the feature slice lands.
export default function AuthenticationPage() {
  return <h1 className="h3">Authentication</h1>;
}
