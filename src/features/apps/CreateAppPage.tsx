// Placeholder until the feature slice lands.
export default function CreateAppPage() {
  return <h1 className="h3">Create App</h1>;
}
