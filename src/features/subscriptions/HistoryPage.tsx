// Placeholder until the feature slice lands.
export default function HistoryPage() {
  return <h1 className="h3">Purchase History</h1>;
}
