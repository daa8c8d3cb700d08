import type { Catalogue } from '../messages';

// The checkout's Italian catalogue: en.ts, sentence by sentence.
export const it: Catalogue = {
  'page.title': 'Pagamento a {app}',
  'page.noscriptRefresh': 'Questa pagina si aggiorna automaticamente ogni 15 secondi.',
  'merchant.label': 'Pagamento a',
  'invoice.number': 'Fattura {id}',
  'invoice.description': 'Causale',

  'pick.heading': 'Scelga il metodo di pagamento',
  'pick.intro': 'Selezioni la criptovaluta e la rete da cui il suo wallet invierà il pagamento.',
  'pick.option': '{asset} su {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Scelga un altro metodo di pagamento',

  'amount.heading': 'Importo da inviare',
  'amount.token': 'Importo esatto da inviare',
  'amount.fiat': 'Totale fattura',
  'amount.rate': 'Tasso di cambio',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Ricevuto finora',

  'network.heading': 'Rete',
  'network.value': '{network} (ID catena {chainId})',
  'network.token': 'Contratto del token',
  'network.coin': 'Moneta nativa della rete, senza contratto token',
  'network.warning': 'Invii a questo indirizzo solo {asset} sulla rete {network} ({standard}).',
  'network.warningPlain': 'Invii a questo indirizzo solo {asset} sulla rete {network}.',

  'address.heading': 'Indirizzo',
  'address.open': 'Apri nel wallet',
  'address.scanOrCopy':
    'Scansioni il codice con il suo wallet oppure copi l’indirizzo e l’importo.',
  'address.qr':
    'Codice QR della richiesta di pagamento: {amount} {asset} sulla rete {network} all’indirizzo {address}',
  'copy.address': 'Copia indirizzo',
  'copy.amount': 'Copia importo',
  'copy.done': 'Copiato',

  'expiry.label': 'Da pagare entro',
  'expiry.left': 'Tempo rimanente',
  'expiry.minutes': 'Restano {minutes} minuti per pagare',
  'expiry.minute': 'Resta 1 minuto per pagare',
  'expiry.seconds': 'Restano {seconds} secondi per pagare',
  'expiry.over': 'Il tempo per pagare è scaduto',

  'waiting.heading': 'Paghi {amount} {asset}',
  'waiting.status': 'In attesa del suo pagamento.',

  'partial.heading': 'Ancora da pagare: {due} {asset}',
  'partial.status':
    'Abbiamo ricevuto {paid} {asset}. Invii la differenza di {due} {asset} allo stesso indirizzo.',

  'seen.heading': 'Pagamento ricevuto, in attesa di conferma',
  'seen.status': 'Pagamento di {paid} {asset} rilevato, conferme: {confirmations} su {required}.',
  'seen.next': 'Può chiudere questa pagina: il pagamento verrà completato automaticamente.',

  'paid.heading': 'Pagamento completato',
  'paid.status': 'Grazie. {app} ha ricevuto il suo pagamento.',
  'paid.redirect': 'Ritorno a {app} tra pochi secondi.',
  'paid.return': 'Torna a {app}',
  'paid.close': 'Può chiudere questa pagina.',
  'paid.late': 'Il suo pagamento è arrivato dopo la scadenza, ma in tempo per essere accettato.',
  'paid.over': 'Ha inviato {amount} {asset} in più del dovuto. {app} le rimborserà la differenza.',

  'expired.heading': 'Questa fattura è scaduta',
  'expired.nothing': 'Non è stato ricevuto alcun pagamento entro la scadenza.',
  'expired.again':
    'Non invii nulla all’indirizzo di questa fattura. Per pagare, torni su {app} e ricominci da capo.',
  'expired.partialHeading': 'Fattura scaduta, pagata solo in parte',
  'expired.partial':
    'Prima della scadenza abbiamo ricevuto {paid} {asset} su {amount} {asset}. Non è sufficiente per completare l’ordine.',
  'expired.partialNext':
    'Non invii altro all’indirizzo di questa fattura. {app} le rimborserà quanto pagato o la contatterà: indichi il numero di fattura riportato qui sotto.',
  'expired.back': 'Torna a {app}',

  'late.heading': 'Il suo pagamento è arrivato troppo tardi',
  'late.status':
    'Abbiamo ricevuto {paid} {asset} dopo la scadenza di questa fattura, quindi non è possibile completare l’ordine.',
  'late.next':
    '{app} le rimborserà l’importo. Se lo contatta, indichi il numero di fattura riportato qui sotto.',

  'invalid.heading': 'Questa fattura non è più valida',
  'invalid.status': 'È stata annullata o chiusa da {app}. Non invii pagamenti per questa fattura.',

  'notFound.heading': 'Pagina di pagamento non trovata',
  'notFound.status':
    'Questa pagina non corrisponde a nessuna fattura. Controlli il link ricevuto o torni al negozio.',
  'badMethod.heading': 'Questo metodo di pagamento non è disponibile',
  'badMethod.status': 'Questa fattura non può essere pagata con {method}.',
  'tooMany.heading': 'Troppe richieste',
  'tooMany.status': 'Attenda un minuto, poi ricarichi la pagina.',
  'error.heading': 'Si è verificato un errore',
  'error.status': 'Ricarichi la pagina tra qualche istante.',

  'language.label': 'Lingua',
  'punctuation.colon': ': ',

  'link.amount': 'Importo',
  'link.amountLabel': 'Importo da pagare, in {currency}',
  'link.range': 'Da {min} a {max}',
  'link.rangeMin': 'Minimo {min}',
  'link.rangeMax': 'Massimo {max}',
  'link.pay': 'Paga',
  'link.next': 'Potrà scegliere la criptovaluta e la rete nella pagina successiva.',
  'link.until': 'Disponibile fino al {date}',
  'link.amountInvalid': 'Inserisca l’importo in cifre, ad esempio 25,00.',
  'link.amountTooLow': 'L’importo deve essere di almeno {min}.',
  'link.amountTooHigh': 'L’importo non può superare {max}.',
  'link.closedHeading': 'Questo link di pagamento non è più disponibile',
  'link.expired': 'È scaduto il {date}. Ne chieda uno nuovo a {app}.',
  'link.usedUp':
    'È già stato usato il numero massimo di volte consentito da {app}. Ne chieda uno nuovo a {app}.',
  'link.off': '{app} lo ha disattivato. Ne chieda uno nuovo a {app}.',
  'link.notFoundHeading': 'Link di pagamento non trovato',
  'link.notFound':
    'Questa pagina non corrisponde a nessun link di pagamento. Controlli il link ricevuto.',
  'link.amountPlaces':
    'Questo importo ha più cifre decimali di quante ne consenta la valuta {currency}.',
  'link.unavailableHeading': 'Al momento questo link di pagamento non può accettare pagamenti',
  'link.unavailable': 'Riprovi tra qualche minuto o contatti {app}.',

  'refund.title': 'Rimborso da {app}',
  'refund.merchantLabel': 'Rimborso da',
  'refund.heading': 'Richieda il Suo rimborso',
  'refund.intro':
    '{app} Le sta inviando un rimborso. Inserisca l’indirizzo del wallet che lo riceverà.',
  'refund.amount': 'Importo',
  'refund.token': 'Valuta',
  'refund.reason': 'Motivo',
  'refund.until': 'Da richiedere entro',
  'refund.addressLabel': 'Il Suo indirizzo {asset} sulla rete {network}',
  'refund.warning':
    'Se inserisce l’indirizzo di deposito di un exchange, si assicuri che l’exchange accetti {asset} sulla rete {network}. Un rimborso inviato sulla rete sbagliata, o a un indirizzo che non accetta questo token, va perso.',
  'refund.confirm': 'Ho controllato questo indirizzo: può ricevere {asset} sulla rete {network}.',
  'refund.final': 'Una volta richiesto il rimborso, l’indirizzo non può più essere modificato.',
  'refund.submit': 'Richiedi il rimborso',
  'refund.addressInvalid': 'Questo non è un indirizzo {network} valido. Lo controlli e riprovi.',
  'refund.addressLost':
    'Tutto ciò che viene inviato a questo indirizzo va perso. Inserisca l’indirizzo del Suo wallet.',
  'refund.addressMerchant':
    'Questo indirizzo appartiene a {app}, non a Lei. Inserisca l’indirizzo del Suo wallet.',
  'refund.confirmMissing': 'Spunti questa casella dopo aver controllato l’indirizzo.',
  'refund.claimedHeading': 'Rimborso richiesto',
  'refund.sentHeading': 'Rimborso inviato',
  'refund.alreadyClaimed':
    'Questo rimborso è già stato richiesto. Il suo indirizzo non può più essere modificato.',
  'refund.status': 'Stato',
  'refund.statusQueued': 'In attesa di invio: {app} lo invierà a breve.',
  'refund.statusSending': 'Invio in corso sulla rete.',
  'refund.statusSent': 'Inviato.',
  'refund.statusFailed':
    'Il trasferimento non è andato a buon fine. {app} lo invierà di nuovo: Lei non deve fare nulla.',
  'refund.txHash': 'Hash della transazione',
  'refund.close': 'Può chiudere questa pagina e riaprire il link per seguire il rimborso.',
  'refund.expiredHeading': 'Questo link di rimborso è scaduto',
  'refund.expired':
    'Non è stato richiesto in tempo, quindi tramite questo link non verrà inviato nulla. Contatti {app}, che può emettere un nuovo link di rimborso.',
  'refund.cancelledHeading': 'Questo rimborso è stato annullato',
  'refund.cancelled':
    '{app} ha annullato questo rimborso, quindi tramite questo link non verrà inviato nulla. Può contattarlo per ricevere un nuovo link di rimborso.',
  'refund.notFoundHeading': 'Link di rimborso non trovato',
  'refund.notFound':
    'A questo indirizzo non corrisponde alcun rimborso. Controlli il link ricevuto.',

  'test.banner': 'MODALITÀ TEST: nessun denaro reale',
  'test.heading': 'Simula un pagamento',
  'test.note':
    'Invia un trasferimento di prova sulla rete di test; questa pagina lo segue come un pagamento reale.',
  'test.full': 'Simula pagamento completo',
  'test.partial': 'Simula pagamento parziale',
  'test.over': 'Simula pagamento in eccesso',
  'test.refused': 'Pagamento non simulato',
  'test.live': 'Questa fattura è reale: i pagamenti si simulano solo in modalità test.',
  'test.final': 'Questa fattura non accetta più pagamenti.',
  'test.paidInFull':
    'Questa fattura è già pagata per intero: simula un pagamento in eccesso per pagare di più.',
  'test.testnet':
    'Qui questa rete di test è una testnet pubblica: invia invece un vero trasferimento sulla testnet.',
  'test.tooMany': 'Troppi pagamenti simulati su questa fattura: riprova tra un minuto.',
  'test.back': 'Torna alla fattura',
};
