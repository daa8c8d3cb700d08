// Placeholder until the feature slice lands.
export default function KycPage() {
  return <h1 className="h3">Identity Verification</h1>;
}
