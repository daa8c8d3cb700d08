import type { Catalogue } from '../messages';

// The checkout's Russian catalogue: en.ts, sentence by sentence.
export const ru: Catalogue = {
  'page.title': 'Оплата: {app}',
  'page.noscriptRefresh': 'Страница обновляется автоматически каждые 15 секунд.',
  'merchant.label': 'Получатель:',
  'invoice.number': 'Счёт {id}',
  'invoice.description': 'Назначение платежа',

  'pick.heading': 'Выберите способ оплаты',
  'pick.intro': 'Укажите монету и сеть, через которую ваш кошелёк отправит платёж.',
  'pick.option': '{asset} в сети {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Выбрать другой способ оплаты',

  'amount.heading': 'Сумма к отправке',
  'amount.token': 'Отправьте ровно',
  'amount.fiat': 'Сумма счёта',
  'amount.rate': 'Курс',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Уже получено',

  'network.heading': 'Сеть',
  'network.value': '{network} (ID сети {chainId})',
  'network.token': 'Контракт токена',
  'network.coin': 'Нативная монета сети, без контракта токена',
  'network.warning': 'Отправляйте на этот адрес только {asset} в сети {network} ({standard}).',
  'network.warningPlain': 'Отправляйте на этот адрес только {asset} в сети {network}.',

  'address.heading': 'Адрес',
  'address.open': 'Открыть в кошельке',
  'address.scanOrCopy': 'Отсканируйте код кошельком или скопируйте адрес и сумму.',
  'address.qr': 'QR-код запроса на оплату: {amount} {asset} в сети {network} на адрес {address}',
  'copy.address': 'Скопировать адрес',
  'copy.amount': 'Скопировать сумму',
  'copy.done': 'Скопировано',

  'expiry.label': 'Оплатить до',
  'expiry.left': 'Осталось',
  'expiry.minutes': 'На оплату осталось минут: {minutes}',
  'expiry.minute': 'На оплату осталась 1 минута',
  'expiry.seconds': 'На оплату осталось секунд: {seconds}',
  'expiry.over': 'Время на оплату истекло',

  'waiting.heading': 'Оплатите {amount} {asset}',
  'waiting.status': 'Ожидаем ваш платёж.',

  'partial.heading': 'Осталось оплатить: {due} {asset}',
  'partial.status':
    'Мы получили {paid} {asset}. Отправьте остаток ({due} {asset}) на тот же адрес.',

  'seen.heading': 'Платёж получен, ждём подтверждений',
  'seen.status': 'Получено {paid} {asset}, подтверждений: {confirmations} из {required}.',
  'seen.next': 'Эту страницу можно закрыть: платёж завершится автоматически.',

  'paid.heading': 'Оплачено',
  'paid.status': 'Спасибо! Ваш платёж в пользу {app} получен.',
  'paid.redirect': 'Через несколько секунд вы вернётесь в {app}.',
  'paid.return': 'Вернуться в {app}',
  'paid.close': 'Эту страницу можно закрыть.',
  'paid.late': 'Ваш платёж пришёл после окончания срока оплаты, но его удалось засчитать.',
  'paid.over': 'Вы отправили на {amount} {asset} больше, чем нужно. {app} вернёт вам разницу.',

  'expired.heading': 'Срок действия счёта истёк',
  'expired.nothing': 'Платёж не поступил вовремя.',
  'expired.again':
    'Ничего не отправляйте на адрес этого счёта. Чтобы оплатить, вернитесь в {app} и начните заново.',
  'expired.partialHeading': 'Счёт оплачен частично, срок истёк',
  'expired.partial':
    'До истечения срока мы получили {paid} {asset} из {amount} {asset}. Этого недостаточно, чтобы завершить заказ.',
  'expired.partialNext':
    'Больше ничего не отправляйте на адрес этого счёта. {app} вернёт уплаченную сумму или свяжется с вами. При обращении укажите номер счёта, приведённый ниже.',
  'expired.back': 'Вернуться в {app}',

  'late.heading': 'Ваш платёж пришёл слишком поздно',
  'late.status':
    'Мы получили {paid} {asset} уже после истечения срока счёта, поэтому завершить заказ этим платежом нельзя.',
  'late.next': '{app} вернёт эти средства. При обращении укажите номер счёта, приведённый ниже.',

  'invalid.heading': 'Этот счёт больше не действителен',
  'invalid.status': 'Его отменили или закрыли в {app}. Не отправляйте по нему платежи.',

  'notFound.heading': 'Страница оплаты не найдена',
  'notFound.status':
    'По этому адресу счёта нет. Проверьте полученную ссылку или вернитесь в магазин.',
  'badMethod.heading': 'Этот способ оплаты недоступен',
  'badMethod.status': 'Этот счёт нельзя оплатить с помощью {method}.',
  'tooMany.heading': 'Слишком много запросов',
  'tooMany.status': 'Подождите минуту и обновите страницу.',
  'error.heading': 'Что-то пошло не так',
  'error.status': 'Попробуйте обновить страницу чуть позже.',

  'language.label': 'Язык',
  'punctuation.colon': ': ',

  'link.amount': 'Сумма',
  'link.amountLabel': 'Сумма к оплате, {currency}',
  'link.range': 'От {min} до {max}',
  'link.rangeMin': 'Не менее {min}',
  'link.rangeMax': 'Не более {max}',
  'link.pay': 'Оплатить',
  'link.next': 'Монету и сеть вы выберете на следующей странице.',
  'link.until': 'Действует до {date}',
  'link.amountInvalid': 'Введите сумму числом, например 25,00.',
  'link.amountTooLow': 'Сумма должна быть не меньше {min}.',
  'link.amountTooHigh': 'Сумма должна быть не больше {max}.',
  'link.closedHeading': 'Эта платёжная ссылка больше недоступна',
  'link.expired': 'Срок её действия истёк {date}. Запросите новую ссылку у {app}.',
  'link.usedUp':
    'По ней уже оплатили столько раз, сколько разрешено в {app}. Запросите новую ссылку у {app}.',
  'link.off': 'Её отключили в {app}. Запросите новую ссылку у {app}.',
  'link.notFoundHeading': 'Платёжная ссылка не найдена',
  'link.notFound': 'По этому адресу платёжной ссылки нет. Проверьте полученную ссылку.',
  'link.amountPlaces': 'В этой сумме больше десятичных знаков, чем допускается для {currency}.',
  'link.unavailableHeading': 'Эта платёжная ссылка сейчас не принимает платежи',
  'link.unavailable': 'Попробуйте ещё раз через несколько минут или свяжитесь с {app}.',

  'refund.title': 'Возврат средств от {app}',
  'refund.merchantLabel': 'Возврат от',
  'refund.heading': 'Получите возврат средств',
  'refund.intro':
    '{app} возвращает вам средства. Укажите адрес кошелька, на который их нужно отправить.',
  'refund.amount': 'Сумма',
  'refund.token': 'Валюта',
  'refund.reason': 'Причина',
  'refund.until': 'Срок получения',
  'refund.addressLabel': 'Ваш адрес для {asset} в сети {network}',
  'refund.warning':
    'Если вы указываете адрес для пополнения на бирже, убедитесь, что биржа принимает {asset} в сети {network}. Средства, отправленные не в той сети или на адрес, который не принимает этот токен, будут потеряны.',
  'refund.confirm': 'Адрес проверен: на него можно получить {asset} в сети {network}.',
  'refund.final': 'После подтверждения адрес изменить нельзя.',
  'refund.submit': 'Получить возврат',
  'refund.addressInvalid':
    'Это недействительный адрес сети {network}. Проверьте его и попробуйте ещё раз.',
  'refund.addressLost':
    'Всё, что отправлено на этот адрес, будет потеряно. Укажите адрес своего кошелька.',
  'refund.addressMerchant':
    'Этот адрес принадлежит продавцу ({app}), а не вам. Укажите адрес своего кошелька.',
  'refund.confirmMissing': 'Отметьте этот пункт, когда проверите адрес.',
  'refund.claimedHeading': 'Возврат оформлен',
  'refund.sentHeading': 'Возврат отправлен',
  'refund.alreadyClaimed': 'Этот возврат уже оформлен. Его адрес изменить нельзя.',
  'refund.status': 'Статус',
  'refund.statusQueued': 'Ожидает отправки: {app} скоро отправит средства.',
  'refund.statusSending': 'Отправляется в сети.',
  'refund.statusSent': 'Отправлен.',
  'refund.statusFailed':
    'Перевод не прошёл. {app} отправит его ещё раз, от вас ничего не требуется.',
  'refund.txHash': 'Хеш транзакции',
  'refund.close': 'Эту страницу можно закрыть. Чтобы следить за возвратом, откройте ссылку снова.',
  'refund.expiredHeading': 'Срок действия ссылки на возврат истёк',
  'refund.expired':
    'Возврат не был оформлен вовремя, поэтому по этой ссылке ничего отправлено не будет. Свяжитесь с продавцом ({app}): он может выдать новую ссылку на возврат.',
  'refund.cancelledHeading': 'Возврат отменён',
  'refund.cancelled':
    'Продавец ({app}) отменил этот возврат, поэтому по этой ссылке ничего отправлено не будет. Вы можете попросить у него новую ссылку на возврат.',
  'refund.notFoundHeading': 'Ссылка на возврат не найдена',
  'refund.notFound': 'По этому адресу возврата нет. Проверьте полученную ссылку.',
};
