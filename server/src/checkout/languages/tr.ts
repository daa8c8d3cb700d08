import type { Catalogue } from '../messages';

// The checkout's Turkish catalogue: en.ts, sentence by sentence.
export const tr: Catalogue = {
  'page.title': '{app} için ödeme',
  'page.noscriptRefresh': 'Bu sayfa 15 saniyede bir kendiliğinden yenilenir.',
  'merchant.label': 'Alıcı:',
  'invoice.number': 'Fatura {id}',
  'invoice.description': 'Açıklama',

  'pick.heading': 'Ödeme yöntemini seçin',
  'pick.intro': 'Cüzdanınızdan göndereceğiniz kripto parayı ve ağı seçin.',
  'pick.option': '{network} ağında {asset}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Başka bir ödeme yöntemi seçin',

  'amount.heading': 'Gönderilecek tutar',
  'amount.token': 'Gönderilecek tam tutar',
  'amount.fiat': 'Fatura toplamı',
  'amount.rate': 'Kur',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Şu ana kadar alınan',

  'network.heading': 'Ağ',
  'network.value': '{network} (zincir kimliği {chainId})',
  'network.token': 'Token sözleşmesi',
  'network.coin': 'Ağın yerel coini (token sözleşmesi yok)',
  'network.warning': 'Bu adrese yalnızca {network} ({standard}) ağı üzerinden {asset} gönderin.',
  'network.warningPlain': 'Bu adrese yalnızca {network} ağı üzerinden {asset} gönderin.',

  'address.heading': 'Adres',
  'address.open': 'Cüzdanda aç',
  'address.scanOrCopy': 'QR kodunu cüzdanınızla tarayın ya da adresi ve tutarı kopyalayın.',
  'address.qr': 'Ödeme talebinin QR kodu: {network} ağında {address} adresine {amount} {asset}',
  'copy.address': 'Adresi kopyala',
  'copy.amount': 'Tutarı kopyala',
  'copy.done': 'Kopyalandı',

  'expiry.label': 'Son ödeme zamanı',
  'expiry.left': 'Kalan süre',
  'expiry.minutes': 'Ödeme için {minutes} dakika kaldı',
  'expiry.minute': 'Ödeme için 1 dakika kaldı',
  'expiry.seconds': 'Ödeme için {seconds} saniye kaldı',
  'expiry.over': 'Ödeme süresi doldu',

  'waiting.heading': '{amount} {asset} ödeyin',
  'waiting.status': 'Ödemeniz bekleniyor.',

  'partial.heading': 'Kalan tutar: {due} {asset}',
  'partial.status':
    '{paid} {asset} tutarındaki ödemenizi aldık. Kalan {due} {asset} tutarını aynı adrese gönderin.',

  'seen.heading': 'Ödeme alındı, onaylanıyor',
  'seen.status': '{paid} {asset} tutarında ödeme tespit edildi, onay: {confirmations}/{required}.',
  'seen.next': 'Bu sayfayı kapatabilirsiniz: ödeme kendiliğinden tamamlanacak.',

  'paid.heading': 'Ödeme tamamlandı',
  'paid.status': 'Teşekkür ederiz. Ödemeniz {app} tarafından alındı.',
  'paid.redirect': 'Birkaç saniye içinde {app} sayfasına yönlendirileceksiniz.',
  'paid.return': '{app} sayfasına dön',
  'paid.close': 'Bu sayfayı kapatabilirsiniz.',
  'paid.late': 'Ödemeniz süre dolduktan sonra ulaştı, ancak yine de kabul edildi.',
  'paid.over':
    'Gereken tutardan {amount} {asset} fazla gönderdiniz. Aradaki fark {app} tarafından size iade edilecek.',

  'expired.heading': 'Bu faturanın süresi doldu',
  'expired.nothing': 'Süre dolmadan ödeme alınmadı.',
  'expired.again':
    'Bu faturanın adresine hiçbir şey göndermeyin. Ödeme yapmak için {app} sayfasına dönüp yeniden başlayın.',
  'expired.partialHeading': 'Faturanın süresi doldu, kısmen ödendi',
  'expired.partial':
    'Süre dolmadan önce {amount} {asset} tutarın yalnızca {paid} {asset} kadarını aldık. Bu, siparişi tamamlamak için yeterli değil.',
  'expired.partialNext':
    'Bu faturanın adresine başka ödeme göndermeyin. {app} ödediğiniz tutarı iade edecek veya sizinle iletişime geçecek: aşağıdaki fatura numarasını belirtin.',
  'expired.back': '{app} sayfasına dön',

  'late.heading': 'Ödemeniz çok geç ulaştı',
  'late.status':
    '{paid} {asset} tutarındaki ödemenizi bu faturanın süresi dolduktan sonra aldık, bu nedenle sipariş tamamlanamıyor.',
  'late.next':
    'Bu tutar {app} tarafından iade edilecek. İletişime geçerseniz aşağıdaki fatura numarasını belirtin.',

  'invalid.heading': 'Bu fatura artık geçerli değil',
  'invalid.status':
    'Fatura {app} tarafından iptal edildi veya kapatıldı. Bu faturaya ödeme göndermeyin.',

  'notFound.heading': 'Ödeme sayfası bulunamadı',
  'notFound.status':
    'Bu sayfaya ait bir fatura bulunamadı. Size verilen bağlantıyı kontrol edin veya mağazaya geri dönün.',
  'badMethod.heading': 'Bu ödeme yöntemi sunulmuyor',
  'badMethod.status': 'Bu fatura {method} ile ödenemez.',
  'tooMany.heading': 'Çok fazla istek',
  'tooMany.status': 'Lütfen bir dakika bekleyip bu sayfayı yeniden yükleyin.',
  'error.heading': 'Bir sorun oluştu',
  'error.status': 'Lütfen biraz sonra bu sayfayı yeniden yükleyin.',

  'language.label': 'Dil',
  'punctuation.colon': ': ',

  'link.amount': 'Tutar',
  'link.amountLabel': 'Ödenecek tutar ({currency})',
  'link.range': '{min} ile {max} arası',
  'link.rangeMin': 'En az {min}',
  'link.rangeMax': 'En fazla {max}',
  'link.pay': 'Öde',
  'link.next': 'Kripto parayı ve ağı bir sonraki sayfada seçeceksiniz.',
  'link.until': '{date} tarihine kadar geçerli',
  'link.amountInvalid': 'Tutarı sayı olarak girin, örneğin 25,00.',
  'link.amountTooLow': 'Tutar en az {min} olmalıdır.',
  'link.amountTooHigh': 'Tutar en fazla {max} olabilir.',
  'link.closedHeading': 'Bu ödeme bağlantısı artık kullanılamıyor',
  'link.expired':
    'Bağlantının süresi {date} tarihinde doldu. Yeni bir bağlantı için {app} ile iletişime geçin.',
  'link.usedUp':
    'Bu bağlantıyla {app} tarafından izin verilen sayıda ödeme yapıldı. Yeni bir bağlantı için {app} ile iletişime geçin.',
  'link.off':
    'Bu bağlantı {app} tarafından devre dışı bırakıldı. Yeni bir bağlantı için {app} ile iletişime geçin.',
  'link.notFoundHeading': 'Ödeme bağlantısı bulunamadı',
  'link.notFound':
    'Bu sayfaya ait bir ödeme bağlantısı bulunamadı. Size verilen bağlantıyı kontrol edin.',
  'link.amountPlaces':
    'Bu tutar, {currency} için izin verilenden daha fazla ondalık basamak içeriyor.',
  'link.unavailableHeading': 'Bu ödeme bağlantısı şu anda ödeme kabul edemiyor',
  'link.unavailable': 'Lütfen birkaç dakika sonra yeniden deneyin veya {app} ile iletişime geçin.',

  'refund.title': 'İade: {app}',
  'refund.merchantLabel': 'İadeyi yapan',
  'refund.heading': 'İadenizi alın',
  'refund.intro': '{app} size bir iade gönderiyor. İadeyi alacak cüzdanın adresini girin.',
  'refund.amount': 'Tutar',
  'refund.token': 'Para birimi',
  'refund.reason': 'Neden',
  'refund.until': 'Son talep tarihi',
  'refund.addressLabel': '{network} ağındaki {asset} adresiniz',
  'refund.warning':
    'Bir kripto para borsasının yatırma adresini girerseniz, borsanın {network} ağında {asset} kabul ettiğinden emin olun. Yanlış ağdan ya da bu tokeni kabul etmeyen bir adrese gönderilen iade kaybolur.',
  'refund.confirm': 'Bu adresi kontrol ettim: {network} ağında {asset} alabilir.',
  'refund.final': 'İade talep edildikten sonra adres değiştirilemez.',
  'refund.submit': 'İadeyi talep et',
  'refund.addressInvalid': 'Bu geçerli bir {network} adresi değil. Kontrol edip yeniden deneyin.',
  'refund.addressLost': 'Bu adrese gönderilen her şey kaybolur. Kendi cüzdanınızın adresini girin.',
  'refund.addressMerchant':
    'Bu adres size değil, satıcıya ({app}) ait. Kendi cüzdanınızın adresini girin.',
  'refund.confirmMissing': 'Adresi kontrol ettikten sonra bu kutuyu işaretleyin.',
  'refund.claimedHeading': 'İade talep edildi',
  'refund.sentHeading': 'İade gönderildi',
  'refund.alreadyClaimed': 'Bu iade zaten talep edildi. Adresi değiştirilemez.',
  'refund.status': 'Durum',
  'refund.statusQueued': 'Gönderilmeyi bekliyor: {app} kısa süre içinde gönderecek.',
  'refund.statusSending': 'Ağ üzerinden gönderiliyor.',
  'refund.statusSent': 'Gönderildi.',
  'refund.statusFailed':
    'Transfer gerçekleşmedi. {app} yeniden gönderecek; sizin bir şey yapmanız gerekmiyor.',
  'refund.txHash': 'İşlem hash değeri',
  'refund.close':
    'Bu sayfayı kapatabilir, iadeyi takip etmek için bağlantıyı yeniden açabilirsiniz.',
  'refund.expiredHeading': 'Bu iade bağlantısının süresi doldu',
  'refund.expired':
    'İade zamanında talep edilmediği için bu bağlantı üzerinden bir şey gönderilmeyecek. Yeni bir iade bağlantısı için {app} ile iletişime geçin.',
  'refund.cancelledHeading': 'Bu iade iptal edildi',
  'refund.cancelled':
    '{app} bu iadeyi iptal etti; bu bağlantı üzerinden bir şey gönderilmeyecek. Satıcıdan yeni bir iade bağlantısı isteyebilirsiniz.',
  'refund.notFoundHeading': 'İade bağlantısı bulunamadı',
  'refund.notFound': 'Bu adreste bir iade yok. Size verilen bağlantıyı kontrol edin.',

  'test.banner': 'TEST MODU: gerçek para yok',
  'test.heading': 'Ödeme simüle et',
  'test.note': 'Test ağında bir test transferi gönderir; bu sayfa onu gerçek bir ödeme gibi izler.',
  'test.full': 'Tam ödemeyi simüle et',
  'test.partial': 'Kısmi ödemeyi simüle et',
  'test.over': 'Fazla ödemeyi simüle et',
  'test.refused': 'Ödeme simüle edilmedi',
  'test.live': 'Bu fatura gerçek: ödemeler yalnızca test modunda simüle edilir.',
  'test.final': 'Bu fatura artık ödeme kabul etmiyor.',
  'test.paidInFull':
    'Bu fatura zaten tamamen ödendi: daha fazla ödemek için fazla ödemeyi simüle edin.',
  'test.testnet':
    'Bu test ağı burada herkese açık bir testnet: bunun yerine gerçek bir testnet transferi gönderin.',
  'test.tooMany': 'Bu faturada çok fazla simüle ödeme var: bir dakika sonra yeniden deneyin.',
  'test.back': 'Faturaya dön',
};
