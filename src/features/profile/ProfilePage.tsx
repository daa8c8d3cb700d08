// Placeholder until the feature slice lands.
export default function ProfilePage() {
  return <h1 className="h3">Profile</h1>;
}
