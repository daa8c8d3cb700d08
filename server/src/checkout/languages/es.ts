import type { Catalogue } from '../messages';

// The checkout's Spanish catalogue: en.ts, sentence by sentence.
export const es: Catalogue = {
  'page.title': 'Pago a {app}',
  'page.noscriptRefresh': 'Esta página se actualiza automáticamente cada 15 segundos.',
  'merchant.label': 'Pago a',
  'invoice.number': 'Factura {id}',
  'invoice.description': 'Concepto',

  'pick.heading': 'Elija cómo pagar',
  'pick.intro': 'Seleccione la criptomoneda y la red que usará su billetera para enviar el pago.',
  'pick.option': '{asset} en {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Elegir otro método de pago',

  'amount.heading': 'Importe a enviar',
  'amount.token': 'Envíe exactamente',
  'amount.fiat': 'Total de la factura',
  'amount.rate': 'Tipo de cambio',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Recibido hasta ahora',

  'network.heading': 'Red',
  'network.value': '{network} (ID de cadena {chainId})',
  'network.token': 'Contrato del token',
  'network.coin': 'Moneda nativa de la red, sin contrato de token',
  'network.warning': 'Envíe a esta dirección únicamente {asset} en la red {network} ({standard}).',
  'network.warningPlain': 'Envíe a esta dirección únicamente {asset} en la red {network}.',

  'address.heading': 'Dirección',
  'address.open': 'Abrir en la billetera',
  'address.scanOrCopy': 'Escanee el código con su billetera o copie la dirección y el importe.',
  'address.qr':
    'Código QR de una solicitud de pago: {amount} {asset} en la red {network} a la dirección {address}',
  'copy.address': 'Copiar dirección',
  'copy.amount': 'Copiar importe',
  'copy.done': 'Copiado',

  'expiry.label': 'Fecha límite de pago',
  'expiry.left': 'Tiempo restante',
  'expiry.minutes': 'Quedan {minutes} minutos para pagar',
  'expiry.minute': 'Queda 1 minuto para pagar',
  'expiry.seconds': 'Quedan {seconds} segundos para pagar',
  'expiry.over': 'Se ha agotado el tiempo para pagar',

  'waiting.heading': 'Pague {amount} {asset}',
  'waiting.status': 'Esperando su pago.',

  'partial.heading': 'Pendiente de pago: {due} {asset}',
  'partial.status':
    'Hemos recibido {paid} {asset}. Envíe el resto, {due} {asset}, a la misma dirección.',

  'seen.heading': 'Pago recibido, pendiente de confirmación',
  'seen.status': 'Pago de {paid} {asset} detectado. Confirmaciones: {confirmations} de {required}.',
  'seen.next': 'Puede cerrar esta página: el pago se completará automáticamente.',

  'paid.heading': 'Pago completado',
  'paid.status': 'Gracias. {app} ha recibido su pago.',
  'paid.redirect': 'Volverá a {app} en unos segundos.',
  'paid.return': 'Volver a {app}',
  'paid.close': 'Puede cerrar esta página.',
  'paid.late': 'Su pago llegó fuera de plazo, pero aún a tiempo para ser aceptado.',
  'paid.over': 'Ha enviado {amount} {asset} más de lo debido. {app} le reembolsará la diferencia.',

  'expired.heading': 'Esta factura ha vencido',
  'expired.nothing': 'No se recibió ningún pago dentro del plazo.',
  'expired.again':
    'No envíe nada a la dirección de esta factura. Para pagar, vuelva a {app} y empiece de nuevo.',
  'expired.partialHeading': 'Factura vencida, pagada solo en parte',
  'expired.partial':
    'Antes del vencimiento recibimos {paid} {asset} de {amount} {asset}. No es suficiente para completar el pedido.',
  'expired.partialNext':
    'No envíe nada más a la dirección de esta factura. {app} le reembolsará lo que pagó o se pondrá en contacto con usted: indique el número de factura que aparece abajo.',
  'expired.back': 'Volver a {app}',

  'late.heading': 'Su pago llegó demasiado tarde',
  'late.status':
    'Recibimos {paid} {asset} cuando esta factura ya había vencido, por lo que no se puede completar el pedido.',
  'late.next':
    '{app} le reembolsará el importe. Si se pone en contacto, indique el número de factura que aparece abajo.',

  'invalid.heading': 'Esta factura ya no es válida',
  'invalid.status': '{app} la ha cancelado o cerrado. No envíe ningún pago para esta factura.',

  'notFound.heading': 'Página de pago no encontrada',
  'notFound.status':
    'Esta página no corresponde a ninguna factura. Compruebe el enlace que recibió o vuelva a la tienda.',
  'badMethod.heading': 'Este método de pago no está disponible',
  'badMethod.status': 'Esta factura no se puede pagar con {method}.',
  'tooMany.heading': 'Demasiadas solicitudes',
  'tooMany.status': 'Espere un minuto y vuelva a cargar esta página.',
  'error.heading': 'Se ha producido un error',
  'error.status': 'Vuelva a cargar esta página en unos instantes.',

  'language.label': 'Idioma',
  'punctuation.colon': ': ',

  'link.amount': 'Importe',
  'link.amountLabel': 'Importe a pagar, en {currency}',
  'link.range': 'De {min} a {max}',
  'link.rangeMin': 'Mínimo: {min}',
  'link.rangeMax': 'Máximo: {max}',
  'link.pay': 'Pagar',
  'link.next': 'Elegirá la criptomoneda y la red en la página siguiente.',
  'link.until': 'Disponible hasta el {date}',
  'link.amountInvalid': 'Indique el importe en cifras, por ejemplo 25,00.',
  'link.amountTooLow': 'El importe debe ser de al menos {min}.',
  'link.amountTooHigh': 'El importe no puede superar {max}.',
  'link.closedHeading': 'Este enlace de pago ya no está disponible',
  'link.expired': 'Venció el {date}. Pida uno nuevo a {app}.',
  'link.usedUp':
    'Ya se ha usado el número máximo de veces que permite {app}. Pida uno nuevo a {app}.',
  'link.off': '{app} lo ha desactivado. Pida uno nuevo a {app}.',
  'link.notFoundHeading': 'Enlace de pago no encontrado',
  'link.notFound':
    'Esta página no corresponde a ningún enlace de pago. Compruebe el enlace que recibió.',
  'link.amountPlaces': 'Este importe tiene más decimales de los que admite la moneda {currency}.',
  'link.unavailableHeading': 'Este enlace de pago no puede aceptar pagos en este momento',
  'link.unavailable': 'Vuelva a intentarlo dentro de unos minutos o póngase en contacto con {app}.',

  'refund.title': 'Reembolso de {app}',
  'refund.merchantLabel': 'Reembolso de',
  'refund.heading': 'Reclame su reembolso',
  'refund.intro':
    '{app} le envía un reembolso. Introduzca la dirección del monedero que lo recibirá.',
  'refund.amount': 'Importe',
  'refund.token': 'Moneda',
  'refund.reason': 'Motivo',
  'refund.until': 'Fecha límite',
  'refund.addressLabel': 'Su dirección de {asset} en la red {network}',
  'refund.warning':
    'Si introduce la dirección de depósito de un exchange, asegúrese de que el exchange acepta {asset} en la red {network}. Un reembolso enviado por la red equivocada, o a una dirección que no acepta este token, se pierde.',
  'refund.confirm': 'He comprobado esta dirección: puede recibir {asset} en la red {network}.',
  'refund.final': 'Una vez reclamado el reembolso, la dirección ya no se puede cambiar.',
  'refund.submit': 'Reclamar el reembolso',
  'refund.addressInvalid':
    'Esta no es una dirección de {network} válida. Compruébela e inténtelo de nuevo.',
  'refund.addressLost':
    'Todo lo que se envía a esta dirección se pierde. Introduzca la dirección de su propio monedero.',
  'refund.addressMerchant':
    'Esta dirección pertenece a {app}, no a usted. Introduzca la dirección de su propio monedero.',
  'refund.confirmMissing': 'Marque esta casilla después de comprobar la dirección.',
  'refund.claimedHeading': 'Reembolso reclamado',
  'refund.sentHeading': 'Reembolso enviado',
  'refund.alreadyClaimed':
    'Este reembolso ya se ha reclamado. Su dirección ya no se puede cambiar.',
  'refund.status': 'Estado',
  'refund.statusQueued': 'Pendiente de envío: {app} lo enviará en breve.',
  'refund.statusSending': 'Enviándose por la red.',
  'refund.statusSent': 'Enviado.',
  'refund.statusFailed':
    'La transferencia no se completó. {app} la enviará de nuevo; usted no tiene que hacer nada.',
  'refund.txHash': 'Hash de la transacción',
  'refund.close': 'Puede cerrar esta página y volver a abrir el enlace para seguir el reembolso.',
  'refund.expiredHeading': 'Este enlace de reembolso ha caducado',
  'refund.expired':
    'No se reclamó a tiempo, así que no se enviará nada a través de él. Póngase en contacto con {app}, que puede emitir un nuevo enlace de reembolso.',
  'refund.cancelledHeading': 'Este reembolso se ha cancelado',
  'refund.cancelled':
    '{app} ha cancelado este reembolso, así que no se enviará nada a través de este enlace. Puede pedirle un nuevo enlace de reembolso.',
  'refund.notFoundHeading': 'Enlace de reembolso no encontrado',
  'refund.notFound': 'No hay ningún reembolso en esta dirección. Compruebe el enlace que recibió.',

  'test.banner': 'MODO DE PRUEBA: sin dinero real',
  'test.heading': 'Simular un pago',
  'test.note':
    'Envía una transferencia de prueba en la red de prueba; esta página la sigue como a un pago real.',
  'test.full': 'Simular pago completo',
  'test.partial': 'Simular pago parcial',
  'test.over': 'Simular pago en exceso',
  'test.refused': 'Pago no simulado',
  'test.live': 'Esta factura es real: los pagos solo se simulan en modo de prueba.',
  'test.final': 'Esta factura ya no admite pagos.',
  'test.paidInFull':
    'Esta factura ya está pagada por completo: simule un pago en exceso para pagar más.',
  'test.testnet':
    'Aquí esta red de prueba es una testnet pública: envíe en su lugar una transferencia real en la testnet.',
  'test.tooMany': 'Demasiados pagos simulados en esta factura: inténtelo de nuevo en un minuto.',
  'test.back': 'Volver a la factura',
};
