import type { Catalogue } from '../messages';

// The checkout's Japanese catalogue: en.ts, sentence by sentence.
export const ja: Catalogue = {
  'page.title': '{app}へのお支払い',
  'page.noscriptRefresh': 'このページは15秒ごとに自動で更新されます。',
  'merchant.label': '支払先',
  'invoice.number': '請求書番号：{id}',
  'invoice.description': '内容',

  'pick.heading': 'お支払い方法を選択してください',
  'pick.intro': 'ウォレットから送金する通貨とネットワークをお選びください。',
  'pick.option': '{asset}（{network}）',
  'pick.amount': '{amount} {asset}',
  'pick.change': '別のお支払い方法を選ぶ',

  'amount.heading': '送金額',
  'amount.token': '正確な送金額',
  'amount.fiat': 'ご請求金額',
  'amount.rate': '換算レート',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': '受領済みの金額',

  'network.heading': 'ネットワーク',
  'network.value': '{network}（チェーンID：{chainId}）',
  'network.token': 'トークンコントラクト',
  'network.coin': 'ネイティブコイン（トークンコントラクトなし）',
  'network.warning':
    'このアドレスには、必ず{network}（{standard}）の{asset}のみを送金してください。',
  'network.warningPlain': 'このアドレスには、必ず{network}の{asset}のみを送金してください。',

  'address.heading': '送金先アドレス',
  'address.open': 'ウォレットで開く',
  'address.scanOrCopy': 'ウォレットでQRコードを読み取るか、アドレスと金額をコピーしてください。',
  'address.qr': '支払いリクエストのQRコード：{network}で{amount} {asset}を{address}へ送金',
  'copy.address': 'アドレスをコピー',
  'copy.amount': '金額をコピー',
  'copy.done': 'コピーしました',

  'expiry.label': 'お支払い期限',
  'expiry.left': '残り時間',
  'expiry.minutes': 'お支払い期限まで残り{minutes}分です',
  'expiry.minute': 'お支払い期限まで残り1分です',
  'expiry.seconds': 'お支払い期限まで残り{seconds}秒です',
  'expiry.over': 'お支払い期限を過ぎました',

  'waiting.heading': '{amount} {asset}をお支払いください',
  'waiting.status': 'お支払いをお待ちしています。',

  'partial.heading': 'お支払い残額：{due} {asset}',
  'partial.status':
    '{paid} {asset}を受け取りました。残りの{due} {asset}を同じアドレスに送金してください。',

  'seen.heading': 'お支払いを受け取りました（承認待ち）',
  'seen.status': '{paid} {asset}の送金を検出しました。承認数：{confirmations}/{required}',
  'seen.next': 'このページを閉じても問題ありません。お支払いは自動的に完了します。',

  'paid.heading': 'お支払い完了',
  'paid.status': 'ありがとうございます。{app}がお支払いを受け取りました。',
  'paid.redirect': '数秒後に{app}に戻ります。',
  'paid.return': '{app}に戻る',
  'paid.close': 'このページは閉じていただいて構いません。',
  'paid.late': 'お支払いは期限後に届きましたが、有効なお支払いとして受け付けました。',
  'paid.over': 'ご請求額より{amount} {asset}多く送金されました。差額は{app}から返金されます。',

  'expired.heading': 'この請求書は期限切れです',
  'expired.nothing': '期限内にお支払いを確認できませんでした。',
  'expired.again':
    'この請求書のアドレスには何も送金しないでください。お支払いの際は、{app}に戻って最初からやり直してください。',
  'expired.partialHeading': 'この請求書は期限切れです（一部のみお支払い済み）',
  'expired.partial':
    '期限までに{amount} {asset}のうち{paid} {asset}を受け取りましたが、ご注文を完了するには不足しています。',
  'expired.partialNext':
    'この請求書のアドレスには追加で送金しないでください。{app}から返金またはご連絡があります。お問い合わせの際は、下記の請求書番号をお伝えください。',
  'expired.back': '{app}に戻る',

  'late.heading': 'お支払いが期限に間に合いませんでした',
  'late.status': 'この請求書の期限切れ後に{paid} {asset}を受け取ったため、ご注文を完了できません。',
  'late.next':
    'この金額は{app}から返金されます。お問い合わせの際は、下記の請求書番号をお伝えください。',

  'invalid.heading': 'この請求書は無効です',
  'invalid.status':
    'この請求書は{app}によりキャンセルまたはクローズされました。送金しないでください。',

  'notFound.heading': 'お支払いページが見つかりません',
  'notFound.status':
    'このURLに該当する請求書はありません。受け取ったリンクをご確認いただくか、ショップにお戻りください。',
  'badMethod.heading': 'このお支払い方法はご利用いただけません',
  'badMethod.status': 'この請求書は{method}ではお支払いいただけません。',
  'tooMany.heading': 'リクエストが多すぎます',
  'tooMany.status': '1分ほどお待ちいただいてから、このページを再読み込みしてください。',
  'error.heading': 'エラーが発生しました',
  'error.status': 'しばらくしてから、このページを再読み込みしてください。',

  'language.label': '言語',
  'punctuation.colon': '：',

  'link.amount': '金額',
  'link.amountLabel': 'お支払い金額（{currency}）',
  'link.range': '{min}～{max}',
  'link.rangeMin': '{min}以上',
  'link.rangeMax': '{max}以下',
  'link.pay': 'お支払いに進む',
  'link.next': '通貨とネットワークは次のページでお選びいただけます。',
  'link.until': '{date}まで有効',
  'link.amountInvalid': '金額を数字で入力してください（例：25.00）。',
  'link.amountTooLow': '{min}以上の金額を入力してください。',
  'link.amountTooHigh': '{max}以下の金額を入力してください。',
  'link.closedHeading': 'この支払いリンクはご利用いただけなくなりました',
  'link.expired': 'このリンクは{date}に有効期限が切れました。{app}に新しいリンクをご依頼ください。',
  'link.usedUp':
    'このリンクは{app}が設定した利用回数の上限に達しました。{app}に新しいリンクをご依頼ください。',
  'link.off': 'このリンクは{app}により無効化されました。{app}に新しいリンクをご依頼ください。',
  'link.notFoundHeading': '支払いリンクが見つかりません',
  'link.notFound': 'このURLに該当する支払いリンクはありません。受け取ったリンクをご確認ください。',
  'link.amountPlaces': 'この金額は、{currency}で使用できる小数点以下の桁数を超えています。',
  'link.unavailableHeading': 'この支払いリンクでは現在お支払いいただけません',
  'link.unavailable': '数分後にもう一度お試しいただくか、{app}にお問い合わせください。',

  'refund.title': '{app}からの返金',
  'refund.merchantLabel': '返金元',
  'refund.heading': '返金を受け取る',
  'refund.intro': '{app}から返金があります。返金を受け取るウォレットのアドレスを入力してください。',
  'refund.amount': '金額',
  'refund.token': '通貨',
  'refund.reason': '理由',
  'refund.until': '受け取り期限',
  'refund.addressLabel': '受け取り用の{asset}アドレス（{network}）',
  'refund.warning':
    '取引所の入金アドレスを入力する場合は、その取引所が{network}上の{asset}に対応していることを必ずご確認ください。異なるネットワークで送られた返金や、このトークンに対応していないアドレスへの返金は失われます。',
  'refund.confirm': 'このアドレスを確認しました。{network}上の{asset}を受け取れるアドレスです。',
  'refund.final': '受け取りを確定すると、アドレスは変更できなくなります。',
  'refund.submit': '受け取りを確定する',
  'refund.addressInvalid':
    '有効な{network}のアドレスではありません。ご確認のうえ、もう一度お試しください。',
  'refund.addressLost':
    'このアドレスに送られたものは失われます。ご自身のウォレットのアドレスを入力してください。',
  'refund.addressMerchant':
    'このアドレスはお客様のものではなく、{app}のものです。ご自身のウォレットのアドレスを入力してください。',
  'refund.confirmMissing': 'アドレスを確認したら、このチェックボックスをオンにしてください。',
  'refund.claimedHeading': '返金の受け取りを確定しました',
  'refund.sentHeading': '返金を送金しました',
  'refund.alreadyClaimed': 'この返金はすでに受け取りが確定しています。アドレスは変更できません。',
  'refund.status': '状況',
  'refund.statusQueued': '送金待ちです。まもなく{app}から送金されます。',
  'refund.statusSending': 'ネットワーク上で送金中です。',
  'refund.statusSent': '送金済みです。',
  'refund.statusFailed':
    '送金が完了しませんでした。{app}が再度送金しますので、お客様の操作は不要です。',
  'refund.txHash': 'トランザクションハッシュ',
  'refund.close':
    'このページは閉じてもかまいません。返金の状況は、もう一度リンクを開くと確認できます。',
  'refund.expiredHeading': 'この返金リンクは有効期限が切れています',
  'refund.expired':
    '期限内に受け取りが確定されなかったため、このリンクからは何も送金されません。新しい返金リンクの発行については{app}にお問い合わせください。',
  'refund.cancelledHeading': 'この返金はキャンセルされました',
  'refund.cancelled':
    '{app}がこの返金をキャンセルしたため、このリンクからは何も送金されません。新しい返金リンクの発行をご依頼いただけます。',
  'refund.notFoundHeading': '返金リンクが見つかりません',
  'refund.notFound': 'このURLに該当する返金はありません。受け取ったリンクをご確認ください。',

  'test.banner': 'テストモード：実際のお金は動きません',
  'test.heading': '支払いをシミュレート',
  'test.note':
    'テストネットワークでテスト送金を行います。このページは実際の支払いと同じように追跡します。',
  'test.full': '全額の支払いをシミュレート',
  'test.partial': '一部の支払いをシミュレート',
  'test.over': '過払いをシミュレート',
  'test.refused': '支払いはシミュレートされませんでした',
  'test.live': 'この請求書は本番用です。支払いのシミュレートはテストモードでのみ可能です。',
  'test.final': 'この請求書はもう支払いを受け付けません。',
  'test.paidInFull':
    'この請求書はすでに全額支払われています。さらに支払うには過払いをシミュレートしてください。',
  'test.testnet':
    'このテストネットワークはここでは公開テストネットです。代わりに実際のテストネット送金を行ってください。',
  'test.tooMany': 'この請求書でのシミュレートが多すぎます。1分後にもう一度お試しください。',
  'test.back': '請求書に戻る',
};
