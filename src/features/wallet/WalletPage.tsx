// Placeholder until the feature slice lands.
export default function WalletPage() {
  return <h1 className="h3">Wallet</h1>;
}
