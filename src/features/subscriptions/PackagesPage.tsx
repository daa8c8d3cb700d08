// Placeholder until the feature slice lands.
export default function PackagesPage() {
  return <h1 className="h3">Packages</h1>;
}
