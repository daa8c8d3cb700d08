// Placeholder until the feature slice lands.
export default function SupportPage() {
  return <h1 className="h3">Support</h1>;
}
