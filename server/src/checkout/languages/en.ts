// The English catalogue of the checkout (/pay/{id}), payment link (/l/{slug}) and refund claim
// (/refund/{token}) pages: the source every other language translates, key by key. `{name}`
// marks a value the page fills in.

export const en = {
  'page.title': 'Pay {app}',
  'page.noscriptRefresh': 'This page refreshes itself every 15 seconds.',
  'merchant.label': 'Payment to',
  'invoice.number': 'Invoice {id}',
  'invoice.description': 'For',

  'pick.heading': 'Choose how to pay',
  'pick.intro': 'Pick the coin and network your wallet will send from.',
  'pick.option': '{asset} on {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Choose another way to pay',

  'amount.heading': 'Amount to send',
  'amount.token': 'Send exactly',
  'amount.fiat': 'Invoice total',
  'amount.rate': 'Rate',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Received so far',

  'network.heading': 'Network',
  'network.value': '{network} (chain id {chainId})',
  'network.token': 'Token contract',
  'network.coin': 'Native coin, no token contract',
  'network.warning': 'Send only {asset} on {network} ({standard}) to this address.',
  'network.warningPlain': 'Send only {asset} on {network} to this address.',

  'address.heading': 'Address',
  'address.open': 'Open in wallet',
  'address.scanOrCopy': 'Scan the code with your wallet, or copy the address and the amount.',
  'address.qr': 'QR code of a payment request: {amount} {asset} on {network} to {address}',
  'copy.address': 'Copy address',
  'copy.amount': 'Copy amount',
  'copy.done': 'Copied',

  'expiry.label': 'Pay by',
  'expiry.left': 'Time left',
  'expiry.minutes': '{minutes} minutes left to pay',
  'expiry.minute': '1 minute left to pay',
  'expiry.seconds': '{seconds} seconds left to pay',
  'expiry.over': 'The time to pay is over',

  'waiting.heading': 'Pay {amount} {asset}',
  'waiting.status': 'Waiting for your payment.',

  'partial.heading': 'Still due: {due} {asset}',
  'partial.status':
    'We received {paid} {asset}. Send the remaining {due} {asset} to the same address.',

  'seen.heading': 'Payment received, confirming',
  'seen.status': '{paid} {asset} seen, {confirmations} of {required} confirmations.',
  'seen.next': 'You can close this page: the payment completes by itself.',

  'paid.heading': 'Paid',
  'paid.status': 'Thank you. {app} has received your payment.',
  'paid.redirect': 'Taking you back to {app} in a few seconds.',
  'paid.return': 'Return to {app}',
  'paid.close': 'You can close this page.',
  'paid.late': 'Your payment arrived after the time to pay, but soon enough to count.',
  'paid.over': 'You sent {amount} {asset} more than was due. {app} will refund the difference.',

  'expired.heading': 'This invoice has expired',
  'expired.nothing': 'No payment was received in time.',
  'expired.again': 'Do not send anything to its address. To pay, go back to {app} and start again.',
  'expired.partialHeading': 'This invoice expired, paid in part',
  'expired.partial':
    'We received {paid} {asset} of {amount} {asset} before it expired. That is not enough to complete the order.',
  'expired.partialNext':
    'Do not send more to its address. {app} will refund what you paid or contact you: quote the invoice number below.',
  'expired.back': 'Back to {app}',

  'late.heading': 'Your payment arrived too late',
  'late.status':
    'We received {paid} {asset} after this invoice had expired, so it cannot complete the order.',
  'late.next': '{app} will refund it. Quote the invoice number below if you contact them.',

  'invalid.heading': 'This invoice is no longer valid',
  'invalid.status': 'It was cancelled or closed by {app}. Do not send a payment to it.',

  'notFound.heading': 'Payment page not found',
  'notFound.status':
    'There is no invoice at this address. Check the link you were given, or go back to the shop.',
  'badMethod.heading': 'This way to pay is not offered',
  'badMethod.status': 'This invoice cannot be paid with {method}.',
  'tooMany.heading': 'Too many requests',
  'tooMany.status': 'Please wait a minute, then reload this page.',
  'error.heading': 'Something went wrong',
  'error.status': 'Please reload this page in a moment.',

  'language.label': 'Language',
  // Between a label and its value ("Language: English").
  'punctuation.colon': ': ',

  'link.amount': 'Amount',
  'link.amountLabel': 'Amount to pay, in {currency}',
  'link.range': 'From {min} to {max}',
  'link.rangeMin': 'At least {min}',
  'link.rangeMax': 'At most {max}',
  'link.pay': 'Pay',
  'link.next': 'You choose the coin and network on the next page.',
  'link.until': 'Available until {date}',
  'link.amountInvalid': 'Enter an amount as a number, such as 25.00.',
  'link.amountTooLow': 'The amount must be at least {min}.',
  'link.amountTooHigh': 'The amount must be at most {max}.',
  'link.closedHeading': 'This payment link is no longer available',
  'link.expired': 'It expired on {date}. Ask {app} for a new one.',
  'link.usedUp': 'It has been paid as many times as {app} allowed. Ask {app} for a new one.',
  'link.off': '{app} has turned it off. Ask {app} for a new one.',
  'link.notFoundHeading': 'Payment link not found',
  'link.notFound': 'There is no payment link at this address. Check the link you were given.',
  'link.amountPlaces': 'This amount has more decimal places than {currency} allows.',
  'link.unavailableHeading': 'This payment link cannot take payments right now',
  'link.unavailable': 'Please try again in a few minutes, or contact {app}.',
  'refund.title': 'Refund from {app}',
  'refund.merchantLabel': 'Refund from',
  'refund.heading': 'Claim your refund',
  'refund.intro':
    '{app} is sending you a refund. Enter the address of the wallet that will receive it.',
  'refund.amount': 'Amount',
  'refund.token': 'Currency',
  'refund.reason': 'Reason',
  'refund.until': 'Claim by',
  'refund.addressLabel': 'Your {asset} address on {network}',
  'refund.warning':
    'If you enter an exchange deposit address, make sure the exchange accepts {asset} on {network}. A refund sent on the wrong network, or to an address that does not accept this token, is lost.',
  'refund.confirm': 'I have checked this address: it can receive {asset} on {network}.',
  'refund.final': 'Once the refund is claimed, the address cannot be changed.',
  'refund.submit': 'Claim the refund',
  'refund.addressInvalid': 'This is not a valid {network} address. Check it and try again.',
  'refund.addressLost':
    'Anything sent to this address is lost. Enter the address of your own wallet.',
  'refund.addressMerchant':
    'This address belongs to {app}, not to you. Enter the address of your own wallet.',
  'refund.confirmMissing': 'Tick this box once you have checked the address.',
  'refund.claimedHeading': 'Refund claimed',
  'refund.sentHeading': 'Refund sent',
  'refund.alreadyClaimed': 'This refund was already claimed. Its address cannot be changed.',
  'refund.status': 'Status',
  'refund.statusQueued': 'Waiting to be sent: {app} will send it soon.',
  'refund.statusSending': 'Being sent on the network.',
  'refund.statusSent': 'Sent.',
  'refund.statusFailed':
    'The transfer did not go through. {app} will send it again; you have nothing to do.',
  'refund.txHash': 'Transaction hash',
  'refund.close': 'You can close this page, and open the link again to follow the refund.',
  'refund.expiredHeading': 'This refund link has expired',
  'refund.expired':
    'It was not claimed in time, so nothing will be sent through it. {app} can issue a new refund link: contact them.',
  'refund.cancelledHeading': 'This refund was cancelled',
  'refund.cancelled':
    '{app} cancelled this refund, so nothing will be sent through this link. Contact them: they can issue a new refund link.',
  'refund.notFoundHeading': 'Refund link not found',
  'refund.notFound': 'There is no refund at this address. Check the link you were given.',

  'test.banner': 'TEST MODE: no real money',
  'test.heading': 'Simulate a payment',
  'test.note':
    'Sends a test transfer on the test network; this page follows it as it would a real payment.',
  'test.full': 'Simulate full payment',
  'test.partial': 'Simulate partial payment',
  'test.over': 'Simulate overpayment',
  'test.refused': 'Payment not simulated',
  'test.live': 'This invoice is live: payments are simulated in test mode only.',
  'test.final': 'This invoice no longer takes payments.',
  'test.paidInFull': 'This invoice is already paid in full: simulate an overpayment to pay more.',
  'test.testnet':
    'This test network is a public testnet here: send a real testnet transfer instead.',
  'test.tooMany': 'Too many simulated payments on this invoice: try again in a minute.',
  'test.back': 'Back to the invoice',
} as const;
