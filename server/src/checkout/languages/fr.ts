import type { Catalogue } from '../messages';

// The checkout's French catalogue: en.ts, sentence by sentence.
export const fr: Catalogue = {
  'page.title': 'Paiement à {app}',
  'page.noscriptRefresh': 'Cette page s’actualise toutes les 15 secondes.',
  'merchant.label': 'Paiement à',
  'invoice.number': 'Facture {id}',
  'invoice.description': 'Objet',

  'pick.heading': 'Choisissez votre moyen de paiement',
  'pick.intro':
    'Sélectionnez la cryptomonnaie et le réseau que votre portefeuille utilisera pour l’envoi.',
  'pick.option': '{asset} sur {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Choisir un autre moyen de paiement',

  'amount.heading': 'Montant à envoyer',
  'amount.token': 'Envoyez exactement',
  'amount.fiat': 'Total de la facture',
  'amount.rate': 'Taux de change',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Déjà reçu',

  'network.heading': 'Réseau',
  'network.value': '{network} (identifiant de chaîne {chainId})',
  'network.token': 'Contrat du jeton',
  'network.coin': 'Monnaie native du réseau, sans contrat de jeton',
  'network.warning':
    'Envoyez uniquement des {asset} sur le réseau {network} ({standard}) à cette adresse.',
  'network.warningPlain': 'Envoyez uniquement des {asset} sur le réseau {network} à cette adresse.',

  'address.heading': 'Adresse',
  'address.open': 'Ouvrir dans le portefeuille',
  'address.scanOrCopy':
    'Scannez le code avec votre portefeuille, ou copiez l’adresse et le montant.',
  'address.qr':
    'Code QR d’une demande de paiement : {amount} {asset} sur {network} à l’adresse {address}',
  'copy.address': 'Copier l’adresse',
  'copy.amount': 'Copier le montant',
  'copy.done': 'Copié',

  'expiry.label': 'Date limite de paiement',
  'expiry.left': 'Temps restant',
  'expiry.minutes': 'Il vous reste {minutes} minutes pour payer',
  'expiry.minute': 'Il vous reste 1 minute pour payer',
  'expiry.seconds': 'Il vous reste {seconds} secondes pour payer',
  'expiry.over': 'Le délai de paiement est écoulé',

  'waiting.heading': 'Payez {amount} {asset}',
  'waiting.status': 'En attente de votre paiement.',

  'partial.heading': 'Reste à payer : {due} {asset}',
  'partial.status':
    'Nous avons reçu {paid} {asset}. Envoyez le solde de {due} {asset} à la même adresse.',

  'seen.heading': 'Paiement reçu, confirmation en cours',
  'seen.status':
    'Paiement de {paid} {asset} détecté, confirmations : {confirmations} sur {required}.',
  'seen.next': 'Vous pouvez fermer cette page : le paiement se finalisera automatiquement.',

  'paid.heading': 'Paiement effectué',
  'paid.status': 'Merci. {app} a bien reçu votre paiement.',
  'paid.redirect': 'Retour automatique à {app} dans quelques secondes.',
  'paid.return': 'Revenir à {app}',
  'paid.close': 'Vous pouvez fermer cette page.',
  'paid.late':
    'Votre paiement est arrivé après l’expiration du délai, mais assez tôt pour être pris en compte.',
  'paid.over':
    'Vous avez envoyé {amount} {asset} de plus que le montant dû. {app} vous remboursera la différence.',

  'expired.heading': 'Cette facture a expiré',
  'expired.nothing': 'Aucun paiement n’a été reçu dans le délai imparti.',
  'expired.again':
    'N’envoyez rien à l’adresse de cette facture. Pour payer, retournez sur {app} et recommencez.',
  'expired.partialHeading': 'Facture expirée, partiellement payée',
  'expired.partial':
    'Nous avons reçu {paid} {asset} sur {amount} {asset} avant l’expiration. Ce n’est pas suffisant pour finaliser la commande.',
  'expired.partialNext':
    'N’envoyez plus rien à l’adresse de cette facture. {app} vous remboursera ce que vous avez payé ou vous contactera : indiquez le numéro de facture ci-dessous.',
  'expired.back': 'Retour à {app}',

  'late.heading': 'Votre paiement est arrivé trop tard',
  'late.status':
    'Nous avons reçu {paid} {asset} après l’expiration de cette facture : la commande ne peut donc pas être finalisée.',
  'late.next':
    '{app} vous remboursera ce montant. Si vous le contactez, indiquez le numéro de facture ci-dessous.',

  'invalid.heading': 'Cette facture n’est plus valide',
  'invalid.status':
    'Elle a été annulée ou clôturée par {app}. N’envoyez aucun paiement pour cette facture.',

  'notFound.heading': 'Page de paiement introuvable',
  'notFound.status':
    'Cette page ne correspond à aucune facture. Vérifiez le lien qui vous a été communiqué ou retournez sur la boutique.',
  'badMethod.heading': 'Ce moyen de paiement n’est pas proposé',
  'badMethod.status': 'Cette facture ne peut pas être payée en {method}.',
  'tooMany.heading': 'Trop de requêtes',
  'tooMany.status': 'Veuillez patienter une minute, puis recharger cette page.',
  'error.heading': 'Une erreur s’est produite',
  'error.status': 'Veuillez recharger cette page dans un instant.',

  'language.label': 'Langue',
  'punctuation.colon': '\u00a0: ',

  'link.amount': 'Montant',
  'link.amountLabel': 'Montant à payer, en {currency}',
  'link.range': 'De {min} à {max}',
  'link.rangeMin': 'Minimum : {min}',
  'link.rangeMax': 'Maximum : {max}',
  'link.pay': 'Payer',
  'link.next': 'Vous choisirez la cryptomonnaie et le réseau à l’étape suivante.',
  'link.until': 'Disponible jusqu’au {date}',
  'link.amountInvalid': 'Saisissez un montant en chiffres, par exemple 25,00.',
  'link.amountTooLow': 'Le montant doit être d’au moins {min}.',
  'link.amountTooHigh': 'Le montant ne doit pas dépasser {max}.',
  'link.closedHeading': 'Ce lien de paiement n’est plus disponible',
  'link.expired': 'Il a expiré le {date}. Demandez-en un nouveau à {app}.',
  'link.usedUp':
    'Il a déjà été utilisé autant de fois que {app} l’autorise. Demandez-en un nouveau à {app}.',
  'link.off': '{app} l’a désactivé. Demandez-en un nouveau à {app}.',
  'link.notFoundHeading': 'Lien de paiement introuvable',
  'link.notFound':
    'Cette page ne correspond à aucun lien de paiement. Vérifiez le lien qui vous a été communiqué.',
  'link.amountPlaces':
    'Ce montant comporte plus de décimales que la devise {currency} n’en autorise.',
  'link.unavailableHeading': 'Ce lien de paiement ne peut pas accepter de paiement pour le moment',
  'link.unavailable': 'Veuillez réessayer dans quelques minutes ou contacter {app}.',

  'refund.title': 'Remboursement de {app}',
  'refund.merchantLabel': 'Remboursement de',
  'refund.heading': 'Recevez votre remboursement',
  'refund.intro':
    '{app} vous envoie un remboursement. Saisissez l’adresse du portefeuille qui le recevra.',
  'refund.amount': 'Montant',
  'refund.token': 'Devise',
  'refund.reason': 'Motif',
  'refund.until': 'Date limite',
  'refund.addressLabel': 'Votre adresse {asset} sur le réseau {network}',
  'refund.warning':
    'Si vous saisissez l’adresse de dépôt d’une plateforme d’échange, vérifiez qu’elle accepte les {asset} sur le réseau {network}. Un remboursement envoyé sur le mauvais réseau, ou à une adresse qui n’accepte pas ce jeton, est perdu.',
  'refund.confirm':
    'J’ai vérifié cette adresse. Elle peut recevoir des {asset} sur le réseau {network}.',
  'refund.final': 'Une fois le remboursement réclamé, l’adresse ne peut plus être modifiée.',
  'refund.submit': 'Réclamer le remboursement',
  'refund.addressInvalid': 'Cette adresse {network} n’est pas valide. Vérifiez-la et réessayez.',
  'refund.addressLost':
    'Tout ce qui est envoyé à cette adresse est perdu. Saisissez l’adresse de votre propre portefeuille.',
  'refund.addressMerchant':
    'Cette adresse appartient à {app}, pas à vous. Saisissez l’adresse de votre propre portefeuille.',
  'refund.confirmMissing': 'Cochez cette case après avoir vérifié l’adresse.',
  'refund.claimedHeading': 'Remboursement réclamé',
  'refund.sentHeading': 'Remboursement envoyé',
  'refund.alreadyClaimed':
    'Ce remboursement a déjà été réclamé. Son adresse ne peut plus être modifiée.',
  'refund.status': 'Statut',
  'refund.statusQueued': 'En attente d’envoi. {app} va l’envoyer sous peu.',
  'refund.statusSending': 'En cours d’envoi sur le réseau.',
  'refund.statusSent': 'Envoyé.',
  'refund.statusFailed': 'L’envoi n’a pas abouti. {app} va le renvoyer, vous n’avez rien à faire.',
  'refund.txHash': 'Hash de la transaction',
  'refund.close': 'Vous pouvez fermer cette page et rouvrir le lien pour suivre le remboursement.',
  'refund.expiredHeading': 'Ce lien de remboursement a expiré',
  'refund.expired':
    'Il n’a pas été réclamé à temps, rien ne sera donc envoyé par ce lien. Contactez {app}, qui peut émettre un nouveau lien de remboursement.',
  'refund.cancelledHeading': 'Ce remboursement a été annulé',
  'refund.cancelled':
    '{app} a annulé ce remboursement, rien ne sera donc envoyé par ce lien. Vous pouvez lui demander un nouveau lien de remboursement.',
  'refund.notFoundHeading': 'Lien de remboursement introuvable',
  'refund.notFound':
    'Aucun remboursement ne correspond à cette adresse. Vérifiez le lien que vous avez reçu.',

  'test.banner': 'MODE TEST\u00a0: aucun argent réel',
  'test.heading': 'Simuler un paiement',
  'test.note':
    'Envoie un transfert de test sur le réseau de test\u00a0; cette page le suit comme un vrai paiement.',
  'test.full': 'Simuler le paiement complet',
  'test.partial': 'Simuler un paiement partiel',
  'test.over': 'Simuler un paiement excédentaire',
  'test.refused': 'Paiement non simulé',
  'test.live': 'Cette facture est réelle\u00a0: les paiements ne sont simulés qu’en mode test.',
  'test.final': 'Cette facture n’accepte plus de paiements.',
  'test.paidInFull':
    'Cette facture est déjà entièrement payée\u00a0: simulez un paiement excédentaire pour payer davantage.',
  'test.testnet':
    'Ce réseau de test est ici un testnet public\u00a0: envoyez plutôt un vrai transfert sur le testnet.',
  'test.tooMany': 'Trop de paiements simulés sur cette facture\u00a0: réessayez dans une minute.',
  'test.back': 'Retour à la facture',
};
